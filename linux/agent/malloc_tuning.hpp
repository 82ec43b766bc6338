#pragma once
// glibc's malloc tuned for the agent's many short-lived threads (the dataset scan runs 64).

namespace tfwsl::agent {

// Fixes malloc's mmap threshold at 128 KiB. glibc raises it to the size of any large block freed
// (a 1 MiB manifest read buffer, a copy worker's 1 MiB buffer when its thread ends), after which
// every 1 MiB buffer and scan block comes from a thread's arena, where freed pages stay resident:
// an import of 100,000 files peaked at 23-26 MiB with the moving threshold and 15 MiB without it
// (docs/performance.md). Blocks above the threshold are mapped, touched only where written, and
// returned to the system when freed. Call before any thread starts.
void tune_malloc();

}  // namespace tfwsl::agent
