#include "linux/dataset/import_stop.hpp"

#include <fmt/format.h>

namespace tfwsl::dataset {

std::string stop_message(const StopCause& cause, const StopState& state) {
  std::string source = state.move
                           ? fmt::format(
                                 "{} source file(s) were moved: each was deleted from the source only after its copy "
                                 "was durable and verified in the target; every other source file is where it was",
                                 state.moved)
                           : std::string("the source is untouched");
  std::string stopped = fmt::format(
      "The import stopped: every file it finished is complete and verified in the "
      "target (any file it was writing was removed); {}",
      source);
  const char* resume = "run the same command again: it continues where this one stopped";
  if (cause.code == ErrorCode::no_space)
    return fmt::format(
        "no space left on the target filesystem ({}) while {}. {}. Free some space (or choose another "
        "target), then {}",
        state.target, cause.doing, stopped, resume);
  return fmt::format("I/O error on the target ({}) while {}: {}. {}. {}, then {}", state.target, cause.doing,
                     cause.error_text, stopped, cause.disk_hint ? "Check the disk (dmesg)" : "Fix the cause", resume);
}

}  // namespace tfwsl::dataset
