#pragma once
// The push's words for sizes, durations and the progress line on the status line:
// "copying 50%: 1204/5007 files, 115.0/230.0 MiB, 38.2 MiB/s, ETA 0:03".

#include <cstdint>
#include <string>

#include "win/push/job_state.hpp"

namespace tfwsl::push {

// Sizes and times through common/util (format_bytes, format_clock).
std::string progress_text(const JobProgress& progress);

}  // namespace tfwsl::push
