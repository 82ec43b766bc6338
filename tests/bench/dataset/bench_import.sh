#!/usr/bin/env bash
# Benchmark: `tfwsl-agent dataset import` against `cp -a; sync` and `rsync -a; sync`, same machine,
# same run, on (a) 20,000 files of 4-64 KiB, (b) four files of 512 MiB, (c) a latency-bound source: a
# FUSE passthrough adding a delay (default 1 ms) to each open, getattr and read, standing in for
# /mnt/c over 9P. Not run in CI. Results: docs/performance.md ("Dataset import").
#
#   tests/bench/dataset/bench_import.sh --agent build/linux/linux/tfwsl-agent [--work DIR] [--delay-us 1000]
#       [--small-files 20000] [--big-files 4] [--big-mb 512] [--fuse-files 5000] [--cases abc]
#
# Page cache: before every timed run, `sync` and `echo 3 > /proc/sys/vm/drop_caches` (needs root; if
# that file is not writable every tool runs with a warm cache instead, and the script says so).
# Wall time and peak RSS come from /usr/bin/time. tfwsl's own syncs make its data durable; cp and
# rsync get a `sync` after them so that all three leave the data on disk.
# After the import: the no-op re-run (cache dropped first), the same re-run again at once (warm
# cache), and the floor of any re-run: stat_floor.c, built here, only lists the folders of source
# and target and lstats every entry (cache dropped first), nothing else: the faster of 16 and 128
# threads (16 suits a cold local disk on 2 cores, 128 the latency-bound FUSE source).
set -euo pipefail

agent="" work="${TMPDIR:-/tmp}/tfwsl-bench" delay_us=1000 small_files=20000 big_files=4 big_mb=512 fuse_files=5000
cases=abc
while (($#)); do
  case "$1" in
    --agent) agent=$(realpath "$2"); shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --delay-us) delay_us="$2"; shift 2 ;;
    --small-files) small_files="$2"; shift 2 ;;
    --big-files) big_files="$2"; shift 2 ;;
    --big-mb) big_mb="$2"; shift 2 ;;
    --fuse-files) fuse_files="$2"; shift 2 ;;
    --cases) cases="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -e/{/^#/p}' "$0"; exit 0 ;;
    *) echo "bench_import: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ -x "$agent" ] || { echo "bench_import: pass --agent PATH to a built tfwsl-agent" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
results="$work/results.md"
gcc -O2 -Wall -o "$work/stat_floor" "$here/stat_floor.c" -lpthread
log() { printf 'bench: %s\n' "$*" >&2; }

cache_mode="cold (drop_caches before each run)"
drop_caches() {
  sync
  if [ -w /proc/sys/vm/drop_caches ]; then echo 3 > /proc/sys/vm/drop_caches; else cache_mode="warm (drop_caches not writable)"; fi
}

# measure LABEL CMD...: prints "wall_seconds peak_rss_kib" (measure_warm: without dropping the cache)
measure() {
  drop_caches
  measure_warm "$@"
}
measure_warm() {
  local label="$1"; shift
  /usr/bin/time -f '%e %M' -o "$work/time.out" "$@" > "$work/$label.out" 2> "$work/$label.err" || {
    log "$label failed:"; tail -5 "$work/$label.err" >&2; exit 1; }
  cat "$work/time.out"
}

gen_small() { # DIR COUNT: files of 4-64 KiB in 100 folders
  python3 - "$1" "$2" <<'PY'
import os, random, sys
root, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(42)
pool = os.urandom(1 << 20)
for i in range(count):
    d = os.path.join(root, f"dir{i % 100:03d}")
    os.makedirs(d, exist_ok=True)
    size = rng.randint(4 << 10, 64 << 10)
    start = rng.randint(0, len(pool) - size)
    with open(os.path.join(d, f"file{i:06d}.bin"), "wb") as f:
        f.write(pool[start:start + size])
PY
}

gen_big() { # DIR COUNT MB
  mkdir -p "$1"
  for i in $(seq 1 "$2"); do head -c "$(($3 << 20))" /dev/urandom > "$1/big$i.bin"; done
}

run_case() { # NAME SOURCE DESCRIPTION
  local name="$1" src="$2" desc="$3" dst="$work/dst" t
  local -A wall rss
  for tool in cp rsync tfwsl; do
    rm -rf "$dst"
    case "$tool" in
      cp) t=$(measure "$name-cp" sh -c 'cp -a "$1" "$2" && sync' _ "$src" "$dst") ;;
      rsync) t=$(measure "$name-rsync" sh -c 'rsync -a "$1/" "$2/" && sync' _ "$src" "$dst") ;;
      tfwsl) t=$(measure "$name-tfwsl" "$agent" dataset import --source "$src" --target "$dst") ;;
    esac
    wall[$tool]=${t% *}; rss[$tool]=${t#* }
    log "$name $tool: ${wall[$tool]} s, peak RSS ${rss[$tool]} KiB"
  done
  t=$(measure "$name-rerun" "$agent" dataset import --source "$src" --target "$dst")
  local rerun=${t% *}
  t=$(measure_warm "$name-rerun-warm" "$agent" dataset import --source "$src" --target "$dst")
  local rerun_warm=${t% *}
  local floor f16 f128
  drop_caches; f16=$("$work/stat_floor" 16 "$src" "$dst")
  drop_caches; f128=$("$work/stat_floor" 128 "$src" "$dst")
  floor=$(python3 -c "import sys; print(min(map(float, sys.argv[1:])))" "$f16" "$f128")
  log "$name re-run: ${rerun} s cold, ${rerun_warm} s warm; stat floor ${floor} s"
  diff -r --no-dereference -x .tfwsl-import "$src" "$dst" > /dev/null || { log "$name: target differs from source"; exit 1; }
  rm -rf "$dst"
  python3 - "$name" "$desc" "${wall[cp]}" "${wall[rsync]}" "${wall[tfwsl]}" "$rerun" "$rerun_warm" "$floor" \
      "${rss[cp]}" "${rss[rsync]}" "${rss[tfwsl]}" >> "$results" <<'PY'
import sys
name, desc, cp, rs, tf, rerun, warm, floor, rcp, rrs, rtf = sys.argv[1:]
cp, rs, tf, rerun, warm, floor = map(float, (cp, rs, tf, rerun, warm, floor))
pct = lambda t: f"{t:.2f} ({100 * t / tf:.1f} %)"
print(f"| ({name}) {desc} | {cp:.2f} | {rs:.2f} | {tf:.2f} | {cp / tf:.2f}x | {rs / tf:.2f}x | "
      f"{pct(rerun)} | {pct(warm)} | {pct(floor)} | {int(rcp) // 1024} / {int(rrs) // 1024} / {int(rtf) // 1024} |")
PY
}

{
  echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -r), target filesystem $(df -T "$work" | awk 'NR==2{print $2}')."
  echo
  echo "| case | cp -a; sync (s) | rsync -a; sync (s) | tfwsl import (s) | speed-up vs cp | vs rsync | no-op re-run, cold (s, % of import) | re-run, warm | stat floor, cold | peak RSS cp / rsync / tfwsl (MiB) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$results"

if [[ "$cases" == *a* ]]; then
  rm -rf "$work/small"; gen_small "$work/small" "$small_files"
  run_case a "$work/small" "$small_files files of 4-64 KiB"
  rm -rf "$work/small"
fi
if [[ "$cases" == *b* ]]; then
  rm -rf "$work/big"; gen_big "$work/big" "$big_files" "$big_mb"
  run_case b "$work/big" "$big_files files of $big_mb MiB"
  rm -rf "$work/big"
fi
if [[ "$cases" == *c* ]]; then
  [ -e /dev/fuse ] || { log "no /dev/fuse: case (c) skipped"; exit 1; }
  gcc -O2 -Wall -o "$work/fuse_delay_passthrough" "$here/fuse_delay_passthrough.c" $(pkg-config --cflags --libs fuse3)
  rm -rf "$work/fuse-under" "$work/fuse-mnt"; mkdir -p "$work/fuse-mnt"
  gen_small "$work/fuse-under" "$fuse_files"
  "$work/fuse_delay_passthrough" "$work/fuse-under" "$work/fuse-mnt" --delay-us "$delay_us"
  trap 'fusermount3 -u "$work/fuse-mnt" 2>/dev/null || true' EXIT
  run_case c "$work/fuse-mnt" "$fuse_files files of 4-64 KiB through FUSE, ${delay_us} us per open/getattr/read"
  fusermount3 -u "$work/fuse-mnt"; trap - EXIT
  rm -rf "$work/fuse-under"
fi
echo >> "$results"
echo "Page cache: $cache_mode." >> "$results"
cat "$results"
