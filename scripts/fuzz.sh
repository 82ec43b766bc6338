#!/usr/bin/env bash
# Fuzz smoke runs (owner: knowC): builds the libFuzzer targets with clang, ASan and UBSan (CMake
# preset `fuzz`, folder build/fuzz), then runs every tests/fuzz/fuzz_*.cpp target for N seconds
# from a seed corpus built from the line-1 "// seeds:" of its source (fixture name prefixes from
# ../shared/fixtures, "*" for all of them, or project folders/files). The corpus lives in a temporary
# folder: nothing is written into ../shared or the source tree.
#
#   scripts/fuzz.sh [--seconds N] [--jobs N] [--target fuzz_name]... [--no-build]
#
# Exits non-zero when any target crashes, leaks, hits UB, times out or fails to build; crash inputs
# are kept in build/fuzz/artifacts/<target>/. Ends with one summary line.
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
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: --seconds needs a whole number, got '$seconds'" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "fuzz.sh: --jobs needs a positive number, got '$jobs'" >&2; exit 2 ;; esac

shared="${TFWSL_SHARED_DIR:-$root/../shared}"
fixtures="$shared/fixtures"
out="$root/build/fuzz"

if [ "$build" = 1 ]; then
  command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found: run scripts/install-deps.sh" >&2; exit 2; }
  start=$(date +%s)
  # -O1: fast enough to fuzz, quick to build on two cores.
  cmake --preset fuzz -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
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

# Seed corpus of one target: fixture bodies (the text after the '---' line) and project files.
make_corpus() {
  local src="$1" corpus="$2"
  mkdir -p "$corpus"
  python3 - "$src" "$corpus" "$fixtures" "$root" <<'PY'
import os, sys
src, corpus, fixtures, root = sys.argv[1:5]
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
print(len(seeds) - 1)
PY
}

run_target() {
  local name="$1" dir="$work/$1" exe="$out/tests/fuzz/$1"
  mkdir -p "$dir/artifacts"
  if [ ! -x "$exe" ]; then
    echo "missing executable $exe" > "$dir/log"
    return 3
  fi
  local n
  n=$(make_corpus "$root/tests/fuzz/$name.cpp" "$dir/corpus")
  echo "seeds: $n" > "$dir/log"
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$exe" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
           -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" >> "$dir/log" 2>&1
}

echo "fuzz.sh: ${#targets[@]} targets, $seconds s each, $jobs at a time"
declare -A pids=()
running=0
for name in "${targets[@]}"; do
  while [ "$running" -ge "$jobs" ]; do
    wait -n || true
    running=$(jobs -rp | wc -l)
  done
  ( run_target "$name"; echo $? > "$work/$name.rc" ) &
  pids[$name]=$!
  running=$(jobs -rp | wc -l)
done
wait || true

passed=0
failed=()
for name in "${targets[@]}"; do
  rc=$(cat "$work/$name.rc" 2>/dev/null || echo 99)
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$name/log" 2>/dev/null | grep -o '[0-9]*$' || echo "?")
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    echo "  ok    $name ($runs runs)"
  else
    failed+=("$name")
    echo "  FAIL  $name (exit $rc); last lines of its log:"
    tail -n 40 "$work/$name/log" | sed 's/^/        /'
    if compgen -G "$work/$name/artifacts/*" >/dev/null; then
      mkdir -p "$out/artifacts/$name"
      cp "$work/$name"/artifacts/* "$out/artifacts/$name/"
      echo "        crash inputs kept in build/fuzz/artifacts/$name/"
    fi
  fi
done
echo "fuzz: ${#targets[@]} targets, $passed clean, ${#failed[@]} failed${failed:+ (${failed[*]})}, ${seconds} s each"
[ ${#failed[@]} -eq 0 ]
