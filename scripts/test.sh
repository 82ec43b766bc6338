#!/usr/bin/env bash
# The README's test command: installs everything, builds the Linux and the Windows (MinGW) binaries,
# and runs every test with CTest: unit and integration tests natively, the Windows build under Wine.
#   scripts/test.sh            (as root on a fresh Debian 12 machine: the system it is tested on)
# Environment: TFWSL_JOBS (parallel build jobs, default: number of cores), TFWSL_SKIP_DEPS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${TFWSL_JOBS:-$(nproc)}"
phase() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }
timer_start=$SECONDS
stamp() { printf '   %s took %ss\n' "$1" "$((SECONDS - timer_start))"; timer_start=$SECONDS; }

phase "dependencies"
[ "${TFWSL_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh
stamp dependencies
phase "configure"
cmake --preset windows-mingw >/dev/null
cmake --preset linux >/dev/null
stamp configure
phase "build (Windows, MinGW-w64)"
cmake --build --preset windows-mingw -j "$jobs"
stamp "Windows build"
phase "build (Linux)"
cmake --build --preset linux -j "$jobs"
stamp "Linux build"
phase "test"
ctest --preset linux -j "$jobs"
stamp tests
