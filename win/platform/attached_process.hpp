#pragma once
// A child that takes over the terminal while it runs (`tfwsl run`, `tfwsl shell`): it inherits
// standard input, output and error as they are, so its output streams unbuffered and a prompt or a
// progress bar works, and this process waits for it. While it runs, Ctrl-C and Ctrl-\ are the
// child's: the terminal sends them to the whole foreground group (POSIX) or console (Windows), and
// this process ignores them instead of dying before the child has finished (as a shell does for a
// foreground job), so the child's own exit status comes back.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::cli {

struct AttachedRequest {
  std::vector<std::string> argv;           // argv[0]: a path, or a name looked up in PATH
  std::map<std::string, std::string> env;  // set on top of the inherited environment
  std::optional<std::filesystem::path> working_directory;
};

class AttachedRunner {
 public:
  virtual ~AttachedRunner() = default;
  // The child's exit status: its exit code, 128+N when signal N ended it (POSIX), -1 for Windows'
  // 0xFFFFFFFF. Errors: not_found when argv[0] is not there, process when it cannot be started.
  virtual Result<int> run(const AttachedRequest& request) = 0;
};

class SystemAttachedRunner final : public AttachedRunner {
 public:
  Result<int> run(const AttachedRequest& request) override;
};

}  // namespace tfwsl::cli
