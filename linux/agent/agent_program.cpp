#include "linux/agent/agent_program.hpp"

#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "linux/agent/agent_app.hpp"

namespace tfwsl::agent {

int run_agent_program(int argc, char** argv, const std::function<void(Console&)>& configure) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Console console{std::cout,
                  std::cerr,
                  isatty(STDOUT_FILENO) == 1,
                  isatty(STDERR_FILENO) == 1,
                  isatty(STDIN_FILENO) == 1,
                  process_environment()};
  if (configure) configure(console);
  return run_agent_cli(args, console);
}

}  // namespace tfwsl::agent
