#!/usr/bin/env bash
# expect_exit.sh CODE REGEX WINE64 ARGS...: passes when the Windows program ARGS run under Wine
# (through wine_run.sh, which absorbs a wineserver that was exiting as Wine started) exits CODE and
# its stderr+stdout (as printed, or with wrapped lines joined) match REGEX.
set -u
want="$1" pattern="$2"; shift 2
output=$("$(dirname "$0")/wine_run.sh" "$@" 2>&1); got=$?
printf '%s\n' "$output"
[ "$got" = "$want" ] || { echo "expected exit $want, got $got" >&2; exit 1; }
# Messages wrap at the terminal's width (80 columns here): the output as printed, or as one line
# with its wraps joined, matches.
grep -qE -- "$pattern" <<<"$output" || grep -qE -- "$pattern" <<<"$(tr -d '\r' <<<"$output" | sed -z 's/\n */ /g')" \
  || { echo "output does not match: $pattern" >&2; exit 1; }
