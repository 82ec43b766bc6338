#!/usr/bin/env bash
# winedevice_race.sh: provokes on purpose the crash that Wine 8.0's winedevice.exe (Wine's driver
# host) can meet as a Wine session starts, the "wine: Unhandled page fault on read access to
# 0000000000000008 at address 000000031CAA2391" once seen in the Windows tests (docs/building.md,
# "The exit page fault").
#
# The race: winedevice.exe reports its service running, then its main thread enters
# wine_ntoskrnl_main_loop, which creates the PnP manager's driver object (pnp_manager_start). Told it
# runs, services.exe starts a driver in it at once (winebus.sys) on another thread, and that thread
# creates the driver's root-enumerated device with IoCreateDevice(pnp_manager, ...): when the main
# thread has not got that far, pnp_manager is still NULL and IoCreateDevice reads driver->DeviceObject
# at address 8. Under load the main thread can lose that race by itself; here gdb holds it.
#
# How: in a session of its own, gdb attaches to services.exe and follows the next process it starts;
# the winedevice.exe that hosts winebus.sys is killed and `sc start winebus` makes services.exe start
# it again, under gdb; when its thread enters wine_ntoskrnl_main_loop, gdb has it sleep HOLD ms
# (usleep called in it, the other threads running). The session's log then shows the crash, whose
# address wine_symbol.py names. --hold-ms 0 is the control: the same steps, no hold, no crash.
#
# Exits 0 when the outcome is the expected one (a crash in ntoskrnl.exe!IoCreateDevice with a hold,
# none without), 1 otherwise, 77 without gdb. Needs root or ptrace rights over the session.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: tests/windows/winedevice_race.sh [--hold-ms N] [--prefix DIR] [--wine64 PATH] [--logs DIR]
  --hold-ms N    how long gdb holds the main thread at wine_ntoskrnl_main_loop (default 1000; 0: control)
  --prefix DIR   the WINEPREFIX (default build/linux/wineprefix-race, made if missing)
  --wine64 PATH  Wine's loader (default /usr/lib/wine/wine64)
  --logs DIR     keep the session's log, gdb's and sc's output there (default: a temporary folder)
EOF
}

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
hold_ms=1000 prefix="$root/build/linux/wineprefix-race" wine64=/usr/lib/wine/wine64 logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --hold-ms) hold_ms="$2"; shift 2 ;;
    --prefix) prefix="$(realpath -m "$2")"; shift 2 ;;
    --wine64) wine64="$2"; shift 2 ;;
    --logs) logs="$(realpath -m "$2")"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "winedevice_race.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$hold_ms" =~ ^[0-9]+$ ]] || { echo "winedevice_race.sh: --hold-ms takes milliseconds" >&2; exit 2; }
command -v gdb >/dev/null || { echo "skipped: needs gdb (Debian: apt-get install gdb)"; exit 77; }
source "$here/wine_session.sh"
[ -n "$logs" ] || logs=$(mktemp -d "${TMPDIR:-/tmp}/winedevice-race.XXXXXX")
mkdir -p "$logs"
log="$logs/wine-session.log"

# A session of this prefix's own, its services tracing their exceptions with their process ids.
"$here/wine_boot.sh" "$wine64" "$prefix" "$log" >/dev/null
wine_session_stop "$wine64" "$prefix" "$log" >/dev/null || true
export WINEPREFIX="$prefix" WINEDLLOVERRIDES="mscoree,mshtml=" WINEDEBUG=+pid,+seh
wine_session_start "$wine64" "$prefix" "$log"
trap 'wine_session_stop "$wine64" "$prefix" "$log" >/dev/null || true' EXIT

session_pid_of() {  # the session's process whose command line ends with $1 (and maps $2, if given)
  local pid
  for pid in $(wine_session_process_pids "$prefix"); do
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qi "$1" || continue
    [ -z "${2:-}" ] || grep -q "$2" "/proc/$pid/maps" 2>/dev/null || continue
    echo "$pid"
  done
}
services=$(session_pid_of 'services\.exe' | head -1)
host=$(session_pid_of 'winedevice\.exe' winebus.sys | head -1)
[ -n "$services" ] && [ -n "$host" ] || { echo "winedevice_race.sh: no services.exe or winebus host in the session" >&2; exit 1; }
main_loop=$(python3 "$here/wine_symbol.py" --address-of 'ntoskrnl.exe!wine_ntoskrnl_main_loop')

# gdb: follow services.exe's next process through its exec; once ntoskrnl.exe is mapped in it (a
# software breakpoint needs the page; every mmap stop puts it back), stop the thread that enters
# the main loop and have it sleep while the others run (an inferior call resumes every thread; the
# mmap catchpoint goes first, or another thread's stop would end the call).
armed=1  # the control (--hold-ms 0) never arms the breakpoint: gdb only follows the process
[ "$hold_ms" != 0 ] || armed=0
cat >"$logs/hold.gdb" <<EOF
set pagination off
set confirm off
set follow-fork-mode child
set detach-on-fork on
set follow-exec-mode same
handle all nostop noprint pass
break *$main_loop
disable 1
commands 1
  silent
  delete 2
  printf "hold: thread %d of the new winedevice.exe entered wine_ntoskrnl_main_loop; held $hold_ms ms\\n", \$_thread
  call (int)usleep($((hold_ms * 1000)))
  printf "hold: released\\n"
  delete
  continue
end
python
def arm():
    if not $armed:
        return
    try:
        gdb.selected_inferior().read_memory($main_loop, 1)
    except gdb.MemoryError:
        return
    if not gdb.breakpoints()[0].enabled:
        gdb.execute("enable 1")
end
catch syscall mmap
commands 2
  silent
  python arm()
  continue
end
continue
EOF
timeout 120 gdb -q -nx -batch -x "$logs/hold.gdb" -p "$services" >"$logs/gdb.txt" 2>&1 &
gdb_pid=$!
for _ in $(seq 60); do grep -q '^Catchpoint 2' "$logs/gdb.txt" 2>/dev/null && break; sleep 0.5; done
grep -q '^Catchpoint 2' "$logs/gdb.txt" || { echo "winedevice_race.sh: gdb did not attach to services.exe:" >&2; cat "$logs/gdb.txt" >&2; exit 77; }
kill -9 "$host"
sleep 1
WINEDEBUG=-all timeout 60 "$wine64" sc start winebus >"$logs/sc.txt" 2>&1 || true
for _ in $(seq 20); do [ "$armed" = 0 ] || grep -q '^hold: released' "$logs/gdb.txt" && break; sleep 0.5; done
sleep 2
kill "$gdb_pid" 2>/dev/null || true
wait "$gdb_pid" 2>/dev/null || true

grep '^hold:' "$logs/gdb.txt" || echo "hold: none (the new winedevice.exe ran free)"
crash=$(grep -m1 'wine: Unhandled' "$log" || true)
if [ -z "$crash" ]; then
  echo "winedevice-race: hold ${hold_ms} ms: no crash (logs: $logs)"
  [ "$hold_ms" = 0 ]
  exit
fi
address=$(sed -n 's/.* at address \([0-9A-Fa-f]*\).*/\1/p' <<<"$crash")
echo "$crash"
thread=$(sed -n 's/.*(thread \([0-9a-fA-F]*\)).*/\1/p' <<<"$crash")
grep -m1 ":$thread:trace:seh:dispatch_exception  r12=" "$log" || true  # r14: the driver object, NULL
echo "winedevice-race: hold ${hold_ms} ms: crash at $(python3 "$here/wine_symbol.py" "$address") (logs: $logs)"
[ "$hold_ms" != 0 ] && grep -q '!IoCreateDevice+' <<<"$(python3 "$here/wine_symbol.py" "$address")"
