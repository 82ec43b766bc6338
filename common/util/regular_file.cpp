#include "common/util/regular_file.hpp"

namespace tfwsl {

std::string read_problem_text(const RegularFileRead& read, std::uintmax_t max_bytes) {
  switch (read.problem) {
    case FileReadProblem::none:
      return "";
    case FileReadProblem::missing:
      return "does not exist";
    case FileReadProblem::not_regular:
      return std::string("is ") + read.kind + ", not a regular file";
    case FileReadProblem::too_large:
      return "is " + std::to_string(read.size) + " bytes, more than the " + std::to_string(max_bytes) + " read";
    case FileReadProblem::unreadable:
      return "cannot be read (" + read.why + ")";
  }
  return "cannot be read";
}

}  // namespace tfwsl
