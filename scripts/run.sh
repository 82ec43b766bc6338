#!/usr/bin/env bash
# The README's main command: installs what the Linux build needs, builds tfwsl-agent and tfwsl, and
# runs the Linux-side health check of this machine (`tfwsl-agent check`). Extra arguments go to the
# check (for example --json).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${TFWSL_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh --no-windows
cmake --preset linux-only >/dev/null
cmake --build --preset linux-only -j "${TFWSL_JOBS:-$(nproc)}" --target tfwsl-agent tfwsl >/dev/null
exec build/linux-only/linux/tfwsl-agent check "$@"
