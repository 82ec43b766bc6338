#!/usr/bin/env bash
# The README's test command: installs everything, builds the Linux and the Windows (MinGW) binaries,
# and runs every test with CTest: unit and integration tests natively, the Windows build under Wine.
#   scripts/test.sh            (as root on a fresh Debian 12 machine: the system it is tested on)
#   scripts/test.sh --phase NAME   one phase alone (dependencies, configure, build-windows,
#                                  build-linux, test), as the phases below run it
# Each phase runs under a time limit (scripts/lib/phases.sh; .ci/run adds an overall deadline) and
# prints how long it took; the test phase ends with `N passed, N failed, N skipped` and each skip's
# reason (scripts/test-summary.py, from CTest's JUnit files in build/linux/Testing/junit/).
# Environment: TFWSL_JOBS (parallel build jobs, default: number of cores), TFWSL_SKIP_DEPS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${TFWSL_JOBS:-$(nproc)}"
junit_dir="$PWD/build/linux/Testing/junit"

phase_dependencies() {
  [ "${TFWSL_SKIP_DEPS:-0}" = 1 ] && { echo "skipped (TFWSL_SKIP_DEPS=1)"; return 0; }
  scripts/install-deps.sh
}

phase_configure() {
  cmake --preset windows-mingw >/dev/null
  cmake --preset linux >/dev/null
}

phase_build_windows() {
  cmake --build --preset windows-mingw -j "$jobs"
}

# The Linux tree builds in unity batches; the fuzz tree (scripts/fuzz.sh, in CI) builds without
# them, so a file that does not include what it uses fails CI there (docs/building.md).
phase_build_linux() {
  cmake --build --preset linux -j "$jobs"
}

# Wine's own start-up failure ("wine client error:", a wineserver that went away as the test started)
# is outside the program: those tests, and only those, get one rerun, said loudly. Any other failure,
# under Wine or not, fails the run: tests/windows/CMakeLists.txt fails every test of a Windows program
# whose output shows a crash (a page fault), whatever its exit status, and such a test is never
# rerun, start-up error or not (scripts/test-summary.py). The page fault once seen after a test's
# output was Wine's winedevice.exe crashing as a new Wine session started; the tests now share one
# session (tests/windows/wine_session.sh; docs/building.md, "The exit page fault").
names_regex() {  # test names, one a line -> a regular expression matching exactly those
  python3 -c 'import re, sys; print("^(" + "|".join(re.escape(n) for n in sys.argv[1].split()) + ")$")' "$1"
}

# The Windows tests' Wine session lasts until their cleanup test (tests/windows/wine_end.sh): a
# CTest run killed before it (the phase's time limit) would leave its wineserver and services behind.
end_wine_session() {
  local wine64
  wine64=$(sed -n "s/^TFWSL_WINE64:[A-Z]*=//p" build/linux/CMakeCache.txt 2>/dev/null)
  [ -n "$wine64" ] && [ -d build/linux/wineprefix ] || return 0
  tests/windows/wine_end.sh "$wine64" "$PWD/build/linux/wineprefix" "$PWD/build/linux/wine-session.log" >/dev/null 2>&1 || true
}

phase_test() {
  trap end_wine_session EXIT
  rm -rf "$junit_dir"; mkdir -p "$junit_dir"
  local ctest_args=(--timeout 900 --test-output-size-passed 65536 --test-output-size-failed 1048576)
  local rc=0 again=""
  ctest --preset linux -j "$jobs" "${ctest_args[@]}" --output-junit "$junit_dir/1-run.xml" || rc=$?
  if [ "$rc" != 0 ] && [ -s "$junit_dir/1-run.xml" ]; then
    again=$(scripts/test-summary.py --wine-startup-failures "$junit_dir/1-run.xml")
    if [ -n "$again" ]; then
      printf '\n== WINE RERUN: Wine failed to start for %s; running those once more\n' "$(echo $again)"
      ctest --preset linux -j "$jobs" "${ctest_args[@]}" --output-junit "$junit_dir/2-rerun.xml" \
        -R "$(names_regex "$again")" || true
    fi
  fi
  printf '\n'
  # The summary decides once the rerun replaced those tests' results; without a rerun, CTest's own
  # status counts too (a run that wrote no results must not pass).
  scripts/test-summary.py "$junit_dir"/*.xml && { [ "$rc" = 0 ] || [ -n "$again" ]; }
}

if [ "${1:-}" = --phase ]; then
  "phase_${2//-/_}"
  exit
fi

# Run alone, this script prints its phase table at the end; under .ci/run, CI prints one table.
[ -n "${TFWSL_PHASE_TABLE:-}" ] || trap 'print_phase_table' EXIT
source scripts/lib/phases.sh
run_phase dependencies 1800 "$0" --phase dependencies
run_phase configure 600 "$0" --phase configure
run_phase "build (Windows, MinGW-w64)" 2400 "$0" --phase build-windows
run_phase "build (Linux)" 2400 "$0" --phase build-linux
run_phase test 2700 "$0" --phase test
