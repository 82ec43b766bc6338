#!/usr/bin/env bash
# Creates the Wine prefix the Windows tests run in (once; later runs reuse it).
set -euo pipefail
wine64="$1" prefix="$2"
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ -f "$prefix/system.reg" ]; then echo "wine prefix ready: $prefix"; exit 0; fi
"$wine64" wineboot -i >/dev/null 2>&1 || true
"${wine64%64}server" -w 2>/dev/null || wineserver -w 2>/dev/null || true
[ -f "$prefix/system.reg" ] || { echo "wineboot did not create $prefix" >&2; exit 1; }
echo "wine prefix created: $prefix"
