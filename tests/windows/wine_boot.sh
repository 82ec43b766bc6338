#!/usr/bin/env bash
# wine_boot.sh WINE64 PREFIX [SESSION-LOG]: creates the Wine prefix the Windows tests run in (once;
# later runs reuse it), then starts its Wine session (wine_session.sh): a wineserver that stays until
# wine_end.sh, with the services Wine starts once for all the tests, checked for a crash as they start.
# SESSION-LOG (default PREFIX-session.log) gets what those services print while the session lasts.
set -euo pipefail
wine64="$1" prefix="$2" log="${3:-$2-session.log}"
source "$(dirname "$0")/wine_session.sh"
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ -f "$prefix/system.reg" ]; then
  echo "wine prefix ready: $prefix"
else
  "$wine64" wineboot -i >/dev/null 2>&1 || true
  "$(wine_session_server "$wine64")" -w 2>/dev/null || true
  [ -f "$prefix/system.reg" ] || { echo "wineboot did not create $prefix" >&2; exit 1; }
  echo "wine prefix created: $prefix"
fi
wine_session_start "$wine64" "$prefix" "$log"
