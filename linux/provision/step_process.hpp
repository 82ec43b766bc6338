#pragma once
// Starts one catalogued command of a step: as root, or as the distro's user (its uid, gid and
// groups, HOME, a fresh environment: never pip as root), stdin empty, stdout and stderr appended to
// the step's log. Each start is first recorded in the process log (one JSON line: step, argv, pid),
// which is how a second run proves it started no apt or pip process.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::provision {

struct DistroUser {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
  std::string home;
};

// From /etc/passwd (getpwnam).
Result<DistroUser> find_distro_user(const std::string& name);

// The whole environment of a child root starts (a step's command, the TensorFlow probe as the
// user): a fixed PATH and LANG, and HOME, USER and LOGNAME of `user` (nullptr: root's HOME).
// Nothing of the agent's own environment nor of a user's file is in it.
std::map<std::string, std::string> fixed_child_environment(const DistroUser* user);

struct StepCommand {
  std::string step;  // the step id, for the logs
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // on top of PATH, HOME, USER, LOGNAME, LANG
  const DistroUser* as_user = nullptr;     // nullptr: as the agent (root)
  std::chrono::milliseconds timeout{std::chrono::minutes(60)};
  // Each line the command writes, read back from the step log while it runs (may be empty).
  std::function<void(std::string_view)> on_output;
};

struct StepLogs {
  std::filesystem::path step_log;     // the step's output
  std::filesystem::path process_log;  // every process started, one JSON line each
};

// The exit status (128+N for a signal); process when it could not start; timeout when killed at
// the limit.
Result<int> run_step_command(const StepCommand& command, const StepLogs& logs);

}  // namespace tfwsl::provision
