#!/usr/bin/env bash
# wine_end.sh WINE64 PREFIX [SESSION-LOG]: ends the Wine session wine_boot.sh started for PREFIX
# (every process of it), and fails when one of its services crashed while it ran: such a crash is
# printed in SESSION-LOG, not in any test's output (wine_session.sh).
set -euo pipefail
wine64="$1" prefix="$2" log="${3:-$2-session.log}"
source "$(dirname "$0")/wine_session.sh"
wine_session_stop "$wine64" "$prefix" "$log"
