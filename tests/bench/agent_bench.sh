#!/usr/bin/env bash
# Benchmark of tfwsl-agent's HTTP path (not run in CI; figures go to docs/performance.md).
#
#   tests/bench/agent_bench.sh [AGENT_BINARY] [--duration SECONDS] [--connections N]
#
# Starts the agent (serve --listen 127.0.0.1:0 --stdio-handshake, token through a FIFO on stdin,
# never on a command line), then runs wrk (Debian package `wrk`) against GET /v1/info with 50
# connections for 10 s and prints: requests/s, p50/p99 latency, non-2xx responses and socket errors,
# the agent's RSS before and after; then the latency of a cached GET /v1/checks (1 connection, 5 s).
# The token reaches wrk through the environment and a Lua script, not through argv.
set -euo pipefail
cd "$(dirname "$0")/../.."

agent="build/agent/linux/tfwsl-agent"
duration=10
connections=50
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) agent="$1"; shift ;;
  esac
done
[ -x "$agent" ] || { echo "agent_bench.sh: no agent binary at '$agent' (build the tfwsl-agent target)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "agent_bench.sh: wrk not found: apt-get install wrk" >&2; exit 2; }

work=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null || true; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
mkfifo "$work/stdin"
TOKEN=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
export TOKEN
"$agent" serve --listen 127.0.0.1:0 --stdio-handshake --threads 8 <"$work/stdin" >"$work/stdout" 2>"$work/log" &
pid=$!
exec 3>"$work/stdin"          # keep stdin open: the agent exits at EOF
printf '%s\n' "$TOKEN" >&3
for _ in $(seq 100); do [ -s "$work/stdout" ] && break; sleep 0.1; done
port=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$work/stdout" | head -1)
[ -n "$port" ] || { echo "agent_bench.sh: no handshake line; log:" >&2; cat "$work/log" >&2; exit 1; }

cat >"$work/auth.lua" <<'LUA'
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
LUA
rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$pid/status"; }

echo "agent $("$agent" --version) pid $pid port $port, $(nproc) CPUs"
echo "RSS before: $(rss)"
wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$work/auth.lua" "http://127.0.0.1:$port/v1/info" | tee "$work/wrk_info"
echo "RSS after:  $(rss)"
grep -q "Non-2xx" "$work/wrk_info" && echo "NON-2XX RESPONSES SEEN" || echo "non-2xx responses: 0"
grep -q "Socket errors" "$work/wrk_info" && echo "SOCKET ERRORS SEEN" || echo "socket errors: 0"

# Fill the cache once (runs the probes), then measure the cached answer.
curl -s -o /dev/null -w "first /v1/checks (probes run): %{time_total} s\n" -H @- "http://127.0.0.1:$port/v1/checks" <<<"Authorization: Bearer $TOKEN"
wrk -t1 -c1 -d5s --latency -s "$work/auth.lua" "http://127.0.0.1:$port/v1/checks" | tee "$work/wrk_checks"
echo "RSS at end: $(rss)"
