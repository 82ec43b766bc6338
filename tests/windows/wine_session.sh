# wine_session.sh: sourced by the Wine test scripts. The Wine session of a prefix: its wineserver and
# the service processes Wine starts with it (services.exe, two winedevice.exe, plugplay.exe, ...).
#
# Why the tests keep one session for the whole run instead of one per program: Debian's wineserver
# wrapper (/usr/lib/wine/wineserver) runs the server with -p0, so it ends the session as soon as the
# last Windows program exits, and the next test starts a new one. Wine 8.0's winedevice.exe can crash
# as a session starts: it reports its service running before its main thread has created the PnP
# manager, so a driver started at once (winebus.sys) may create its root device on a NULL driver
# object: "wine: Unhandled page fault on read access to 0000000000000008 at address
# 000000031CAA2391" (IoCreateDevice in ntoskrnl.exe), printed into whichever test started the session.
# docs/building.md, "The exit page fault", shows it and how to provoke it (winedevice_race.sh).

# The wineserver next to WINE64 (Debian: the -p0 wrapper), else the one on PATH.
wine_session_server() {
  local server
  server="$(dirname "$1")/wineserver"
  [ -x "$server" ] && echo "$server" || echo wineserver
}

# The pids of the wineservers serving PREFIX: a server works in a folder named after the prefix's
# device and inode (server-<dev>-<ino>, both in hex).
wine_session_server_pids() {
  local prefix="$1" id pid
  [ -d "$prefix" ] || return 0
  id=$(printf 'server-%x-%x' $(stat -c '%d %i' "$prefix")) || return 0
  for pid in $(pgrep wineserver || true); do
    [ "$(basename "$(readlink "/proc/$pid/cwd" 2>/dev/null)")" = "$id" ] && echo "$pid"
  done
  return 0
}

# The processes of PREFIX's session (every Wine process inherits WINEPREFIX).
wine_session_process_pids() {
  local prefix="$1" pid
  for pid in $(pgrep -f '\.exe' || true); do
    { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -qxF "WINEPREFIX=$prefix" && echo "$pid"
  done
  return 0
}

# Waits until PREFIX's session is idle: the CPU time of its processes unchanged for one second (at
# most 60 s), so that every service it starts at boot has started, or crashed.
wine_session_settle() {
  local prefix="$1" before=-1 now pid ticks tries
  for ((tries = 0; tries < 60; tries++)); do
    sleep 1
    now=0
    for pid in $(wine_session_process_pids "$prefix"); do
      ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || continue
      now=$((now + ${ticks:-0}))
    done
    [ "$now" = "$before" ] && return 0
    before=$now
  done
  echo "wine session: still busy after 60 s; going on" >&2
}

# Kills every process of PREFIX's session and waits (at most 30 s) for its wineserver to end.
wine_session_kill() {
  local server
  server=$(wine_session_server "$1")
  WINEPREFIX="$2" "$server" -k 2>/dev/null || true
  WINEPREFIX="$2" timeout 30 "$server" -w 2>/dev/null || true
}

# The lines of LOG that show a crash (Wine prints "wine: Unhandled <kind>" and its debugger's dump).
wine_session_crash_lines() {
  grep -nE 'wine: Unhandled|Unhandled exception' "$1" 2>/dev/null || true
}

# Starts a session for PREFIX (created already) that lasts until wine_session_stop, unless one is
# running: a persistent wineserver, then wineboot, whose services write to LOG (appended). A start
# whose services crashed is ended and made again, at most three times in all. Prints what it did.
wine_session_start() {
  local wine64="$1" prefix="$2" log="$3" server attempt
  server=$(wine_session_server "$wine64")
  if [ -n "$(wine_session_server_pids "$prefix")" ]; then
    echo "wine session: already running for $prefix (server $(wine_session_server_pids "$prefix" | paste -sd ' '))"
    return 0
  fi
  for attempt in 1 2 3; do
    : >"$log"
    # Neither the server nor the services may hold the caller's output open: CTest waits for it.
    WINEPREFIX="$prefix" "$server" -p >>"$log" 2>&1 </dev/null || { echo "wine session: $server -p failed" >&2; return 1; }
    WINEPREFIX="$prefix" "$wine64" wineboot >>"$log" 2>&1 </dev/null || true
    wine_session_settle "$prefix"
    if [ -z "$(wine_session_crash_lines "$log")" ]; then
      echo "wine session: started for $prefix (server $(wine_session_server_pids "$prefix" | paste -sd ' '), log $log)"
      return 0
    fi
    echo "wine session: attempt $attempt: a Wine service crashed as the session started; ending it:" >&2
    wine_session_crash_lines "$log" | sed 's/^/  /' >&2
    cp "$log" "$log.attempt-$attempt"
    wine_session_kill "$wine64" "$prefix"
  done
  echo "wine session: its services crashed in three starts in a row" >&2
  return 1
}

# Ends PREFIX's session (every process of it) and says whether any of its services crashed while it
# ran (LOG): 1 when one did, its lines printed.
wine_session_stop() {
  local wine64="$1" prefix="$2" log="$3" crashed
  crashed=$(wine_session_crash_lines "$log")
  wine_session_kill "$wine64" "$prefix"
  if [ -n "$crashed" ]; then
    echo "wine session: a Wine service crashed while the session ran ($log):"
    printf '%s\n' "$crashed" | sed 's/^/  /'
    return 1
  fi
  echo "wine session: ended for $prefix; no service of it crashed"
}
