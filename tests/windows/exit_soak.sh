#!/usr/bin/env bash
# exit_soak.sh: runs tfwsl.exe under Wine N times against the wsl.exe stand-in, under CPU load, with
# Wine's exception trace on, and counts the runs whose output shows a page fault or any unhandled
# exception: the soak for the page fault once seen as tfwsl.exe exited (docs/building.md, "The exit
# page fault"). Each run is `tfwsl.exe doctor --json` (or the command after --) in one stand-in world
# (tests/wsl_standin: the stand-in wsl.exe, the relay, the real tfwsl-agent in a fake distro), so
# every run starts an agent child through the child channel and ends with its pipe readers.
# --linger-seconds makes the stand-in leave a grandchild holding those pipes open after the agent's
# wsl.exe exits (TFWSL_STANDIN_LINGER_MS, tests/wsl_standin/wsl_standin_windows.cpp): the case the
# code before 760a36c met by detaching its readers.
# The runs share one Wine session (wine_session.sh), as CTest's do: the prefix's running session, or
# one started for the soak and ended after it. --cold starts a new session for every run instead (the
# way every Windows program ran before 2026-12-05), in which Wine's winedevice.exe can crash as the
# session starts (docs/building.md, "The exit page fault").
set -euo pipefail

usage() {
  cat <<'EOF'
usage: tests/windows/exit_soak.sh [options] [-- TFWSL-ARGS...]
  --runs N          runs of tfwsl.exe (default 200)
  --load K          CPU hogs (busy shell loops) started for the soak and killed at its end
                    (default: the number of cores; 0 for none)
  --build DIR       the Linux build folder with tfwsl_wsl_session and wsl-session.txt
                    (default build/linux)
  --tfwsl-exe EXE   the tfwsl.exe to soak (default: the one wsl-session.txt names, the MinGW build's)
  --scenario DIR    the stand-in scenario (default tests/wsl_standin/scenarios/healthy)
  --prefix DIR      the WINEPREFIX (default DIR/wineprefix-soak of --build, booted once)
  --winedebug SPEC  WINEDEBUG for every run (default +seh,+tid: each exception, with its thread)
  --logs DIR        keep each run's output there (default: a temporary folder, removed at the end
                    unless a run faulted)
  --expect-exit C   the exit code a run should have (default 0, the healthy scenario's)
  --linger-seconds S  the wsl.exe stand-in that runs the agent (--exec ... tfwsl-agent) leaves a
                    grandchild that keeps its stdout and stderr (tfwsl.exe's pipes) open S seconds
                    after it exits (TFWSL_STANDIN_LINGER_MS); MIN-MAX draws each run's S evenly
                    from that range (e.g. 1.5-4: around the channel's 2 s wait). Default: none
  --expect-pipes-open N  fail unless exactly N runs show "pipes are still open after it exited"
                    (needs --log-level debug): proof that --linger-seconds took that path
  --cold            every run in a new Wine session: the prefix's wineserver ended before each
                    run, so each run starts Wine's services anew (their output is then the run's)
  TFWSL-ARGS        what tfwsl.exe runs (default: doctor --json)
Prints one line per faulting run, then one summary line:
  exit-soak: runs=N exit{0:N ...} wine-startup-failures=N faults=N unhandled=N access-violations=N
             session-crashes=N pipes-open=N wall=Ns load=K [linger=S] [cold]
(session-crashes: 1 when a service of the session the soak started crashed, in its wine-session.log,
which also counts as a fault; pipes-open: the runs whose output has the channel's debug line "pipes
are still open after it exited", seen only with --log-level debug among TFWSL-ARGS).
and exits 1 when any run faulted or exited other than --expect-exit (a Wine start-up failure,
"wine client error:", is counted apart and fails nothing), 0 otherwise.
A fault is a run whose output (stdout, stderr, Wine's trace) holds "page fault", "wine: Unhandled", "Unhandled exception" or an
EXCEPTION_ACCESS_VIOLATION (code=c0000005 in the +seh trace); its lines are printed.
EOF
}

root="$(cd "$(dirname "$0")/../.." && pwd)"
runs=200 load="$(nproc)" build="$root/build/linux" tfwsl_exe="" prefix="" winedebug="+seh,+tid" logs=""
scenario="$root/tests/wsl_standin/scenarios/healthy" expect_exit=0 linger="" expect_pipes_open="" cold=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --load) load="$2"; shift 2 ;;
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --tfwsl-exe) tfwsl_exe="$(realpath "$2")"; shift 2 ;;
    --scenario) scenario="$(cd "$2" && pwd)"; shift 2 ;;
    --prefix) prefix="$(realpath -m "$2")"; shift 2 ;;
    --winedebug) winedebug="$2"; shift 2 ;;
    --logs) logs="$(realpath -m "$2")"; shift 2 ;;
    --expect-exit) expect_exit="$2"; shift 2 ;;
    --linger-seconds) linger="$2"; shift 2 ;;
    --expect-pipes-open) expect_pipes_open="$2"; shift 2 ;;
    --cold) cold=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "exit_soak.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
tfwsl_args=("$@")
[ ${#tfwsl_args[@]} -gt 0 ] || tfwsl_args=(doctor --json)
[[ "$runs" =~ ^[0-9]+$ && "$load" =~ ^[0-9]+$ ]] || { echo "exit_soak.sh: --runs and --load take numbers" >&2; exit 2; }
number='[0-9]+(\.[0-9]+)?'
[[ -z "$linger" || "$linger" =~ ^$number(-$number)?$ ]] || { echo "exit_soak.sh: --linger-seconds takes S or MIN-MAX (seconds)" >&2; exit 2; }
linger_ms() {  # this run's linger in milliseconds (empty without --linger-seconds)
  [ -n "$linger" ] || return 0
  awk -v spec="$linger" -v r="$RANDOM" 'BEGIN { n = split(spec, a, "-"); lo = a[1]; hi = (n > 1 ? a[2] : a[1]);
    printf "%d\n", (lo + (hi - lo) * r / 32767) * 1000 }'
}

tool="$build/tests/wsl_standin/tfwsl_wsl_session"
config="$build/wsl-session.txt"
for f in "$tool" "$config"; do
  [ -e "$f" ] || { echo "exit_soak.sh: $f is missing: build the linux preset (with the windows-mingw one)" >&2; exit 2; }
done
wine64=$(sed -n 's/^wine = //p' "$config")
[ -n "$prefix" ] || prefix="$build/wineprefix-soak"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tfwsl-exit-soak.XXXXXX")
keep_logs=0
if [ -z "$logs" ]; then logs="$scratch/logs"; else keep_logs=1; fi  # logs of a soak that faulted stay
mkdir -p "$logs"
hogs=()
source "$root/tests/windows/wine_session.sh"
server=$(wine_session_server "$wine64")
own_session=0  # 1 while a session this soak started runs
cleanup() {
  local pid
  [ "$own_session" = 0 ] || wine_session_stop "$wine64" "$prefix" "$logs/wine-session.log" >/dev/null || true
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$scratch/world" "$scratch/session.txt"
  if [ "$keep_logs" = 0 ]; then rm -rf "$scratch"; else rmdir "$scratch" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The world's programs, with this soak's tfwsl.exe.
sed "s|^tfwsl-exe = .*|tfwsl-exe = ${tfwsl_exe:-$(sed -n 's/^tfwsl-exe = //p' "$config")}|" "$config" >"$scratch/session.txt"
export WINEPREFIX="$prefix" WINEDLLOVERRIDES="mscoree,mshtml="
[ -n "$(wine_session_server_pids "$prefix")" ] || own_session=1
"$root/tests/windows/wine_boot.sh" "$wine64" "$prefix" "$logs/wine-session.log" >/dev/null
if [ "$cold" = 1 ]; then  # no session between runs: each run's Wine starts one, which ends after it
  wine_session_kill "$wine64" "$prefix"
  own_session=0
fi

for ((i = 0; i < load; i++)); do
  ( trap - INT TERM; while :; do :; done ) &
  hogs+=($!)
done

declare -A exits=()
faults=0 unhandled=0 violations=0 startup=0 wrong_exit=0 pipes_open=0
start=$(date +%s)
for ((run = 1; run <= runs; run++)); do
  out="$logs/run-$run.txt"
  rc=0 ms=$(linger_ms)
  [ -z "$ms" ] || echo "run-$run.txt $ms" >>"$logs/linger-ms.txt"  # each run's linger, in ms
  [ "$cold" = 0 ] || timeout 60 "$server" -w 2>/dev/null || true  # the last run's session is gone
  TFWSL_STANDIN_LINGER_MS="$ms" WINEDEBUG="$winedebug" timeout 300 "$tool" --config "$scratch/session.txt" --work "$scratch/world" --scenario "$scenario" \
    -- "${tfwsl_args[@]}" >"$out" 2>&1 </dev/null || rc=$?
  if [ "$rc" != 0 ] && grep -q '^wine client error:' "$out"; then
    startup=$((startup + 1))
    timeout 30 "$server" -w 2>/dev/null || true
    continue
  fi
  exits[$rc]=$(( ${exits[$rc]:-0} + 1 ))
  [ "$rc" = "$expect_exit" ] || wrong_exit=$((wrong_exit + 1))
  u=0 v=0
  ! grep -q 'pipes are still open after it exited' "$out" || pipes_open=$((pipes_open + 1))
  grep -qE 'wine: Unhandled|Unhandled exception|page fault' "$out" && u=1
  grep -qE 'code=c0000005|EXCEPTION_ACCESS_VIOLATION' "$out" && v=1
  unhandled=$((unhandled + u)) violations=$((violations + v))
  if [ "$u" = 1 ] || [ "$v" = 1 ]; then
    faults=$((faults + 1)) keep_logs=1
    echo "exit-soak: run $run (exit $rc${ms:+, linger ${ms} ms}) faulted; its output: $out"
    grep -nE -B2 -A12 'wine: Unhandled|Unhandled exception|page fault|code=c0000005|EXCEPTION_ACCESS_VIOLATION' "$out" | head -60 | sed 's/^/  /'
  fi
done
wall=$(( $(date +%s) - start ))
session_crashes=0  # the services of the session this soak started, which print to its log
if [ "$own_session" = 1 ]; then
  own_session=0
  if ! wine_session_stop "$wine64" "$prefix" "$logs/wine-session.log" >"$scratch/session-end.txt"; then
    session_crashes=1 faults=$((faults + 1)) keep_logs=1
    sed 's/^/exit-soak: /' "$scratch/session-end.txt"
  fi
fi

codes=""
for c in $(printf '%s\n' "${!exits[@]}" | sort -n); do codes+="${codes:+ }$c:${exits[$c]}"; done
[ "$keep_logs" = 1 ] && echo "exit-soak: logs kept in $logs"
echo "exit-soak: runs=$runs exit{$codes} wine-startup-failures=$startup faults=$faults unhandled=$unhandled" \
     "access-violations=$violations session-crashes=$session_crashes pipes-open=$pipes_open wall=${wall}s" \
     "load=$load${linger:+ linger=$linger}$([ "$cold" = 0 ] || echo ' cold')" \
     "tfwsl.exe=$(sed -n 's/^tfwsl-exe = //p' "$scratch/session.txt")"
if [ -n "$expect_pipes_open" ] && [ "$pipes_open" != "$expect_pipes_open" ]; then
  echo "exit-soak: $pipes_open runs showed the pipes still open after the agent exited, not $expect_pipes_open"
  exit 1
fi
[ "$faults" = 0 ] && [ "$wrong_exit" = 0 ]
