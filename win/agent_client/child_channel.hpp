#pragma once
// A long-lived child process with pipes: the wsl.exe that runs the agent lives for the whole
// command (it is the agent's lifeline: closing its stdin ends the agent). The process port
// (ProcessRunner) runs children to completion, so this is a second, smaller port.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::agent_client {

class ChildChannel {
 public:
  virtual ~ChildChannel() = default;
  virtual Status write(std::string_view bytes) = 0;
  virtual void close_input() = 0;
  // One line from stdout without its "\n" (and "\r"); timeout and end-of-stream are errors.
  virtual Result<std::string> read_line(std::chrono::milliseconds timeout) = 0;
  // Exactly n bytes from stdout.
  virtual Result<std::string> read_exact(std::size_t n, std::chrono::milliseconds timeout) = 0;
  virtual bool running() = 0;
  virtual std::optional<int> exit_code() = 0;  // once it has exited
  virtual std::string stderr_text() = 0;       // what it wrote to stderr so far
  // Closes stdin and waits for the exit; kills the child after `grace`.
  virtual void finish(std::chrono::milliseconds grace) = 0;
};

class ChildLauncher {
 public:
  virtual ~ChildLauncher() = default;
  virtual Result<std::unique_ptr<ChildChannel>> start(const std::vector<std::string>& argv,
                                                      const std::map<std::string, std::string>& env) = 0;
};

// Boost.Process on both platforms; stdout and stderr are drained by threads.
class SystemChildLauncher final : public ChildLauncher {
 public:
  Result<std::unique_ptr<ChildChannel>> start(const std::vector<std::string>& argv,
                                              const std::map<std::string, std::string>& env) override;
};

}  // namespace tfwsl::agent_client
