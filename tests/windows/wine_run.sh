#!/usr/bin/env bash
# wine_run.sh WINE64 ARGS...: runs one Windows program under Wine, and runs it again (at most twice
# more) when Wine itself failed to reach its wineserver ("wine client error:...: recvmsg: Connection
# reset by peer"): the server of the previous short test was exiting as this one connected, so the
# program never ran (before the tests shared one lasting session, wine_session.sh; kept for a run
# without it). Any other outcome, failures included, is the program's and is passed through.
set -u
wine64="$1"; shift
source "$(dirname "$0")/wine_session.sh"
wineserver=$(wine_session_server "$wine64")
out=$(mktemp); trap 'rm -f "$out"' EXIT
for attempt in 1 2 3; do
  "$wine64" "$@" >"$out" 2>&1; rc=$?
  if [ "$rc" -eq 0 ] || ! grep -q '^wine client error:' "$out"; then break; fi
  echo "wine_run: attempt $attempt: wine could not reach its wineserver; waiting for it to exit, then again" >&2
  timeout 30 "$wineserver" -w 2>/dev/null || true  # a lasting session never ends: bounded
done
cat "$out"
exit "$rc"
