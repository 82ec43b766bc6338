#pragma once
// One child (pip) with its stdout and stderr written straight into a log file as it runs (an hour
// of pip output never sits in memory, and `tail -f` shows it), the agent's environment passed on
// unchanged (PIP_INDEX_URL, PIP_NO_INDEX, PIP_FIND_LINKS, proxies), stopped at a limit. The child
// is contained (common/process/contained_child.hpp): it leads a process group of its own, which is
// killed on every path (the limit, a Ctrl-C or SIGTERM to the agent, and after pip's own exit), so
// nothing it started (builds, compilers) outlives the run; and when the agent itself is killed
// (SIGKILL), the group's guardian kills it.

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::venv {

// A new, empty log file DIR/pip-20261201T193400Z.log (-2, -3, ... when that name is taken), 0600;
// DIR is created (0700) when missing.
Result<std::filesystem::path> create_log_file(const std::filesystem::path& dir, const std::string& prefix);

struct LoggedRun {
  int exit_code = -1;  // 128+N for a signal
  bool timed_out = false;
  bool interrupted = false;       // the agent got SIGINT/SIGTERM and stopped the child
  std::vector<std::string> tail;  // the child's last 20 output lines that are not blank
};

// Appends "$ argv" and then the child's output to `log`. Error only when it could not start.
Result<LoggedRun> run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                             std::chrono::seconds timeout);

// The last n lines of the file that are not blank.
std::vector<std::string> last_lines_of(const std::filesystem::path& file, std::size_t n);

}  // namespace tfwsl::venv
