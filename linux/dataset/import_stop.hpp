#pragma once
// The message of an import stopped by a full disk or an I/O error: the cause, what is true of the
// target and the source at that moment (with --move: how many source files were moved, each only
// after its copy was durable and verified in the target), and that the same command continues.
// Written once the job has wound down, so that the counts include the batch committed after the
// stop. Platform-neutral.

#include <cstdint>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::dataset {

struct StopCause {
  ErrorCode code = ErrorCode::io;  // no_space or io
  std::string doing;               // "writing 'd/f.bin'"
  std::string error_text;          // "Input/output error (EIO)"
  bool disk_hint = false;          // EIO, EROFS: the disk itself may be failing
};

struct StopState {
  std::string target;
  bool move = false;
  std::uint64_t moved = 0;  // source files deleted after their verified copy, this run
};

std::string stop_message(const StopCause& cause, const StopState& state);

}  // namespace tfwsl::dataset
