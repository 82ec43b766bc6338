#!/usr/bin/env bash
# Refreshes docs/samples on purpose: runs the Wine doctor scenarios (which write their text and
# JSON reports into build/linux/samples, never into the tree) and copies the reports over.
#   scripts/refresh-samples.sh        (after scripts/test.sh, or any build of both presets)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/linux
[ -d "$build" ] || { echo "refresh-samples: $build is missing: run scripts/test.sh first" >&2; exit 1; }
rm -rf "$build/samples"
ctest --test-dir "$build" -R '^windows\.doctor\.' --output-on-failure
shopt -s nullglob
reports=("$build"/samples/*.txt "$build"/samples/*.json)
((${#reports[@]})) || { echo "refresh-samples: the scenarios wrote no reports" >&2; exit 1; }
cp "${reports[@]}" docs/samples/
echo "refresh-samples: ${#reports[@]} reports copied to docs/samples; review them with git diff docs/samples"
