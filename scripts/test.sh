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
# Under Wine a run now and then fails for a reason outside the program's logic: a wineserver that
# was exiting (absorbed by tests/windows/wine_run.sh), or, on a loaded machine, Wine reporting a page
# fault as tfwsl.exe exits, after its whole output (seen in 2 of about 10 full runs, not yet traced,
# not repeated on a rerun). So a failure confined to Wine tests (windows.*) gets one rerun of exactly
# those tests, said loudly in the log; a failure that repeats, or any failure of a native test,
# fails the run.
if ! ctest --preset linux -j "$jobs"; then
  failed_log=build/linux/Testing/Temporary/LastTestsFailed.log
  if [ -s "$failed_log" ] && ! cut -d: -f2- "$failed_log" | grep -qv '^windows\.'; then
    printf '\n== rerun of the Wine tests that failed (%s):\n' "$(cut -d: -f2- "$failed_log" | tr '\n' ' ')"
    ctest --test-dir build/linux --rerun-failed --output-on-failure -j "$jobs"
    echo "WINE RERUN: the tests above failed once under Wine and passed when run again"
  else
    exit 1
  fi
fi
stamp tests
