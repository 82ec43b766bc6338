#pragma once
// Commands in the distro a command works on, as its default user: through wsl.exe on Windows
// (`wsl.exe -d DISTRO --exec ...`), a child process on the native Linux build (the distro is this
// machine). Every Linux path may start with "~/": the helpers below expand it in the distro.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct DistroReply {
  long long exit_code = -1;
  std::string out;
  std::string err;
};

class DistroCommands {
 public:
  virtual ~DistroCommands() = default;
  virtual Result<DistroReply> run(const std::vector<std::string>& argv, std::optional<std::string> stdin_text,
                                  std::chrono::milliseconds timeout) = 0;
};

std::unique_ptr<DistroCommands> make_distro_commands(const std::string& distro, Machine& machine);

// Whether the folder exists in the distro. (Files in a project's WSL copy are written by the agent,
// `tfwsl-agent project`, beneath the project folder without following links: never by sh here.)
bool distro_folder_exists(DistroCommands& commands, const std::string& linux_path);

// Nothing when VENV/bin/python starts; else why not.
std::optional<std::string> distro_python_fails(DistroCommands& commands, const std::string& venv);

// $HOME of the distro's default user.
Result<std::string> distro_home(DistroCommands& commands);

}  // namespace tfwsl::cli
