#!/usr/bin/env bash
# Benchmark of `tfwsl explain` on a 10 MB TensorFlow log (not run in CI; figures go to
# docs/performance.md, section "tfwsl explain").
#
#   tests/bench/explain_bench.sh [TFWSL_BINARY] [--mb N] [--runs N]
#
# Builds a log in a temporary folder from realistic TF 2.x lines (device creation, NUMA notes,
# cuDNN factory noise, training progress), one 2 MB line without newline breaks in the middle (a
# pasted progress bar), and a cuInit failure at the very end, so every signature scans the whole
# text. Runs `tfwsl explain --json` and the text form N times each and prints the best and median
# wall time, the peak RSS (GNU time, when present) and checks the finding at the end was seen.
set -euo pipefail
cd "$(dirname "$0")/../.."

tfwsl="build/linux/win/tfwsl"
mb=10
runs=5
while [ $# -gt 0 ]; do
  case "$1" in
    --mb) mb="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) tfwsl="$1"; shift ;;
  esac
done
[ -x "$tfwsl" ] || { echo "explain_bench.sh: no tfwsl binary at '$tfwsl' (build the tfwsl target)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/train.log"
python3 - "$log" "$mb" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
target = mb * 1024 * 1024
lines = [
    "2024-05-01 10:00:{s:02d}.{u:06d}: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 21458 MB memory:  -> device: 0, name: NVIDIA GeForce RTX 4090, pci bus id: 0000:01:00.0, compute capability: 8.9\n",
    "2024-05-01 10:00:{s:02d}.{u:06d}: I external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:984] could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\n",
    "Your kernel may have been built without NUMA support.\n",
    "2024-05-01 10:00:{s:02d}.{u:06d}: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered\n",
    "Epoch {s}/100\n",
    "1875/1875 [==============================] - 5s 2ms/step - loss: 0.{u:04d} - accuracy: 0.9{s:02d}\n",
]
with open(path, "w") as f:
    written = 0
    i = 0
    half_done = False
    while written < target:
        line = lines[i % len(lines)].format(s=i % 60, u=(i * 7919) % 1000000)
        f.write(line)
        written += len(line)
        i += 1
        if not half_done and written > target // 2:
            bar = ("\r1875/1875 [====>.........] - ETA: 1s - loss: 0.1" * 45000)[: 2 * 1024 * 1024]
            f.write(bar + "\n")
            written += len(bar) + 1
            half_done = True
    f.write("2024-05-01 10:59:59.000001: E tensorflow/stream_executor/cuda/cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n")
PY
size=$(stat -c %s "$log")
echo "explain_bench: $(( size / 1024 / 1024 )) MB log ($size bytes), $runs runs each, binary $tfwsl"

measure() {
  local label="$1"; shift
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" > "$work/out" || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n > "$work/times"
  local best median
  best=$(head -n1 "$work/times")
  median=$(sed -n "$(( (runs + 1) / 2 ))p" "$work/times")
  printf '  %-22s best %.3f s, median %.3f s\n' "$label" "$best" "$median"
}

measure "explain --json" "$tfwsl" explain --json "$log"
grep -q '"tf.cuinit-no-device"' "$work/out" || { echo "explain_bench: the finding at the end of the log was missed" >&2; exit 1; }
measure "explain (text)" "$tfwsl" explain "$log"
measure "explain - (stdin)" sh -c "\"$tfwsl\" explain - < \"$log\""
if [ -x /usr/bin/time ]; then
  # CPU time too: on a busy machine wall time mostly measures the other processes.
  /usr/bin/time -f '  one run: %e s wall, %U s user, %S s sys, peak RSS %M KB' "$tfwsl" explain --json "$log" > /dev/null 2> "$work/rss" || true
  tail -n1 "$work/rss"
fi
