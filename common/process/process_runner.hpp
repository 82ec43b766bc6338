#pragma once
// The process-runner port. Every child process tfwsl starts (wsl.exe, nvidia-smi, dpkg-query, a
// Python probe) goes through this interface, so tests substitute a recording fake.
//
// argv vectors only, never a shell string: nothing is ever interpreted by a shell.

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl {

struct ProcessRequest {
  std::vector<std::string> argv;           // argv[0]: a path, or a name looked up in PATH
  std::optional<std::string> stdin_data;   // written then closed; no data: stdin is empty
  std::map<std::string, std::string> env;  // set in the child on top of the inherited environment
  std::optional<std::filesystem::path> working_directory;
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  // Each piece of stderr as it is read, on the runner's thread, while the child runs (a progress
  // reader); ProcessOutcome::err still holds all of it. Empty: nothing is called.
  std::function<void(std::string_view)> on_stderr;
};

struct ProcessOutcome {
  int exit_code = -1;      // as the OS reports it; Windows' 0xFFFFFFFF (wsl.exe's -1) is -1 here
  std::string out;         // raw bytes from stdout (wsl.exe: often UTF-16LE; see console_decoder)
  std::string err;         // raw bytes from stderr
  bool timed_out = false;  // the child was killed at the timeout; out/err hold what came before
  std::chrono::milliseconds elapsed{0};
};

// A one-line rendering of argv for messages and logs, quoted where needed.
std::string describe_command(const std::vector<std::string>& argv);

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Runs the child to completion (or the timeout). A child that ran and failed is a value with its
  // exit code; only a child that could not be started at all (not found, not executable) is an
  // error (ErrorCode::not_found or ErrorCode::process).
  virtual Result<ProcessOutcome> run(const ProcessRequest& request) = 0;
};

// Boost.Process (v1 API) on both platforms.
class SystemProcessRunner final : public ProcessRunner {
 public:
  Result<ProcessOutcome> run(const ProcessRequest& request) override;
};

// The executable argv[0] names: itself when it has a directory part, else the PATH entry
// (with PATHEXT on Windows). not_found when neither exists.
Result<std::filesystem::path> resolve_program(const std::string& name);

}  // namespace tfwsl
