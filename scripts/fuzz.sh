#!/usr/bin/env bash
# Fuzz smoke runs: builds the libFuzzer targets with clang, ASan and UBSan (CMake preset `fuzz`,
# folder build/fuzz), then, for every tests/fuzz/fuzz_*.cpp target:
#   1. replays its corpus once, input by input: the files of tests/fuzz/regressions/<target>/ (past
#      findings, kept once fixed) and the seeds named on line 1 of its source ("// seeds:" fixture
#      name prefixes from tests/fixtures, "*" for all of them, or project folders/files);
#   2. fuzzes from that corpus for N seconds (--seconds 0: the replay only).
# The corpus lives in a temporary folder: nothing is written into the source tree.
#
#   scripts/fuzz.sh [--seconds N] [--jobs N] [--target fuzz_name]... [--no-build]
#
# Exits non-zero when any target crashes, leaks, hits UB, times out or fails to build. A failing
# input is kept in build/fuzz/findings/<target>/ and printed in base64 between BEGIN/END lines, so a
# CI log alone gives it back (`base64 -d`). Ends with one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=60
jobs=$(nproc 2>/dev/null || echo 2)
build=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --target) targets+=("$2"); shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: --seconds needs a whole number, got '$seconds'" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "fuzz.sh: --jobs needs a positive number, got '$jobs'" >&2; exit 2 ;; esac

fixtures="$root/tests/fixtures"
[ -d "$fixtures" ] || { echo "fuzz.sh: $fixtures is missing (it is part of the repository)" >&2; exit 2; }
out="$root/build/fuzz"

if [ "$build" = 1 ]; then
  command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found: run scripts/install-deps.sh" >&2; exit 2; }
  start=$(date +%s)
  # -O1: fast enough to fuzz, quick to build on two cores; line tables only (a stack trace names file
  # and line; full debug info cost a fifth of the build).
  cmake --preset fuzz -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" >/dev/null
  # With --target only those fuzzers (and the libraries they link) are built.
  cmake --build "$out" -j "${TFWSL_BUILD_JOBS:-2}" --target "${targets[@]:-fuzz_all}"
  echo "fuzz.sh: built in $(( $(date +%s) - start )) s"
fi

if [ ${#targets[@]} -eq 0 ]; then
  for src in "$root"/tests/fuzz/fuzz_*.cpp; do
    targets+=("$(basename "$src" .cpp)")
  done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tfwsl-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Corpus of one target: its regression inputs as they are (named regression-<file>), then fixture
# bodies (the text after the '---' line) and project files. Prints "<regressions> <seeds>".
make_corpus() {
  local src="$1" corpus="$2" regressions="$3"
  mkdir -p "$corpus"
  python3 - "$src" "$corpus" "$fixtures" "$root" "$regressions" <<'PY'
import os, shutil, sys
src, corpus, fixtures, root, regressions = sys.argv[1:6]
kept = sorted(os.listdir(regressions)) if os.path.isdir(regressions) else []
kept = [n for n in kept if os.path.isfile(os.path.join(regressions, n)) and n != "README.md"]
for n in kept:
    shutil.copyfile(os.path.join(regressions, n), os.path.join(corpus, "regression-" + n))
with open(src, encoding="utf-8", errors="replace") as f:
    first = f.readline()
tokens = first.split("seeds:", 1)[1].split() if "seeds:" in first else []
seeds = []
def body(path):
    data = open(path, "rb").read()
    for marker in (b"\n---\n", b"\r\n---\r\n"):
        if marker in data:
            return data.split(marker, 1)[1]
    return data
names = sorted(os.listdir(fixtures)) if os.path.isdir(fixtures) else []
for token in tokens:
    local = os.path.join(root, token)
    if "/" in token or os.path.exists(local):
        paths = []
        if os.path.isdir(local):
            for d, _, files in os.walk(local):
                paths += [os.path.join(d, n) for n in sorted(files)]
        elif os.path.isfile(local):
            paths = [local]
        for p in paths[:200]:
            if os.path.getsize(p) <= (1 << 20):
                seeds.append(open(p, "rb").read())
        continue
    for n in names:
        if n.endswith(".txt") and n != "README.md" and (token == "*" or n.startswith(token)):
            seeds.append(body(os.path.join(fixtures, n)))
seeds.append(b"")
for i, s in enumerate(seeds):
    with open(os.path.join(corpus, f"seed-{i:03d}"), "wb") as f:
        f.write(s)
print(len(kept), len(seeds) - 1)
PY
}

run_target() {
  local name="$1" dir="$work/$1" exe="$out/tests/fuzz/$1"
  mkdir -p "$dir/artifacts"
  if [ ! -x "$exe" ]; then
    echo "missing executable $exe" > "$dir/log"
    return 3
  fi
  local counts
  counts=$(make_corpus "$root/tests/fuzz/$name.cpp" "$dir/corpus" "$root/tests/fuzz/regressions/$name")
  echo "regressions: ${counts% *}, seeds: ${counts#* }" > "$dir/log"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  local limits=(-timeout=30 -rss_limit_mb=2560 -artifact_prefix="$dir/artifacts/")
  # Every input once, whole (no -max_len cut): a fixed finding that comes back fails here. libFuzzer
  # writes no artifact for an input it was given as a file; the last "Running:" line names it.
  echo "replay:" >> "$dir/log"
  local rc=0 input
  "$exe" "${limits[@]}" "$dir"/corpus/* >> "$dir/log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    input=$(sed -n 's/^Running: //p' "$dir/log" | tail -n 1)
    if [ -f "$input" ]; then cp "$input" "$dir/artifacts/replay-$(basename "$input")"; fi
    return "$rc"
  fi
  [ "$seconds" = 0 ] && return 0
  echo "fuzz:" >> "$dir/log"
  "$exe" "${limits[@]}" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 "$dir/corpus" >> "$dir/log" 2>&1
}

# A failing target's inputs: kept under build/fuzz/findings/<target>/ and printed in base64.
keep_findings() {
  local name="$1" file base
  compgen -G "$work/$name/artifacts/*" >/dev/null || return 0
  mkdir -p "$out/findings/$name"
  for file in "$work/$name"/artifacts/*; do
    base=$(basename "$file")
    cp "$file" "$out/findings/$name/$base"
    echo "        finding kept in build/fuzz/findings/$name/$base ($(wc -c < "$file") bytes, sha256 $(sha256sum "$file" | cut -c1-64))"
    if [ "$(wc -c < "$file")" -gt 65536 ]; then
      echo "        (over 64 KiB: not printed)"
      continue
    fi
    echo "        -----BEGIN $name/$base base64-----"
    base64 -w 76 "$file" | sed 's/^/        /'
    echo "        -----END $name/$base base64-----"
  done
  if compgen -G "$work/$name/artifacts/replay-regression-*" >/dev/null; then
    echo "        a kept regression input (tests/fuzz/regressions/$name/) fails again"
  else
    echo "        once fixed, with a unit test, add it to tests/fuzz/regressions/$name/ (docs/performance.md, Fuzzing)"
  fi
}

echo "fuzz.sh: ${#targets[@]} targets, $seconds s each, $jobs at a time"
declare -A pids=()
running=0
for name in "${targets[@]}"; do
  while [ "$running" -ge "$jobs" ]; do
    wait -n || true
    running=$(jobs -rp | wc -l)
  done
  ( rc=0; run_target "$name" || rc=$?; echo "$rc" > "$work/$name.rc" ) &
  pids[$name]=$!
  running=$(jobs -rp | wc -l)
done
wait || true

passed=0
failed=()
for name in "${targets[@]}"; do
  rc=$(cat "$work/$name.rc" 2>/dev/null || echo 99)
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$name/log" 2>/dev/null | grep -o '[0-9]*$' || echo "no")
  corpus=$(grep -m1 '^regressions:' "$work/$name/log" 2>/dev/null || echo "regressions: ?, seeds: ?")
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    echo "  ok    $name (replayed ${corpus}; $runs fuzzing runs)"
  else
    failed+=("$name")
    echo "  FAIL  $name (exit $rc); last lines of its log:"
    echo "        ${corpus}"
    tail -n +2 "$work/$name/log" | tail -n 40 | sed 's/^/        /'
    keep_findings "$name"
  fi
done
echo "fuzz: ${#targets[@]} targets, $passed clean, ${#failed[@]} failed${failed:+ (${failed[*]})}, ${seconds} s each"
[ ${#failed[@]} -eq 0 ]
