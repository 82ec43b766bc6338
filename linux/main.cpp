// tfwsl-agent: runs inside the WSL distro. All logic lives in tfwsl_agent_lib.
#include <unistd.h>

#include <iostream>

#include "linux/agent/agent_app.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  tfwsl::Console console{std::cout,
                         std::cerr,
                         isatty(STDOUT_FILENO) == 1,
                         isatty(STDERR_FILENO) == 1,
                         isatty(STDIN_FILENO) == 1,
                         tfwsl::process_environment()};
  return tfwsl::agent::run_agent_cli(args, console);
}
