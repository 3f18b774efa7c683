#!/bin/sh
# Writes `ropelab families --format markdown` into README.md between the families markers (the
# block tests/cli/test_cli.cpp checks). Usage: scripts/families_readme.sh [build/ropelab]
set -e
binary=${1:-build/ropelab}
cd "$(dirname "$0")/.."
"$binary" families --format markdown > README.families.tmp
awk 'BEGIN { skip = 0 }
     /<!-- families:begin -->/ { print; while ((getline line < "README.families.tmp") > 0) print line; skip = 1; next }
     /<!-- families:end -->/ { skip = 0 }
     !skip { print }' README.md > README.md.tmp
mv README.md.tmp README.md
rm README.families.tmp
