#pragma once
// How much import work the agent takes on at once, and how long it remembers finished jobs.
// docs/datasets.md ("Agent API") documents the defaults and what a client sees past them.

#include <chrono>
#include <cstddef>

namespace tfwsl::dataset {

struct JobLimits {
  // Imports running at once; one more start is refused (busy -> HTTP 429) until one ends.
  unsigned max_running = 4;
  // Threads all running imports may hold together, counted as import_thread_cost() each. A start
  // that asks for more workers than are left gets fewer (the effective count is reported); one that
  // cannot get even the minimum is refused like a start past max_running.
  unsigned max_threads = 512;
  // Finished jobs (succeeded, failed, cancelled) are kept for GET /v1/jobs/<id> this long, and at
  // most this many (the oldest go first); a forgotten id answers 404 saying so.
  std::size_t keep_finished = 64;
  std::chrono::seconds keep_finished_for{3600};
  // What a refused start suggests as Retry-After: a typical import runs for seconds to minutes.
  unsigned retry_after_seconds = 10;
};

// The most threads an import with `jobs` copy workers holds at any moment: its job thread plus the
// larger of its copy workers and its scan threads, which the engine sizes max(jobs, 64) and runs
// before the workers (import_scan_posix.cpp, tree_scan.hpp k_default_scan_threads).
unsigned import_thread_cost(unsigned jobs);

}  // namespace tfwsl::dataset
