#!/usr/bin/env bash
# The README's main command: installs what the Linux build needs, builds tfwsl-agent and tfwsl, and
# runs the user's own command on this machine: `tfwsl doctor` (natively it skips the Windows and
# wsl.exe checks with the reason and starts the tfwsl-agent it built as a child for the Linux side).
# Extra arguments go to the doctor (for example --json or -v).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${TFWSL_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh --no-windows
cmake --preset linux-only >/dev/null
cmake --build --preset linux-only -j "${TFWSL_JOBS:-$(nproc)}" --target tfwsl-agent tfwsl >/dev/null
exec build/linux-only/win/tfwsl doctor --agent build/linux-only/linux/tfwsl-agent "$@"
