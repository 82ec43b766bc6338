#include "linux/app/agent_program.hpp"

#include <string>
#include <vector>

#include "common/cli/process_console.hpp"
#include "linux/agent/malloc_tuning.hpp"
#include "linux/app/agent_app.hpp"

namespace tfwsl::agent {

int run_agent_program(int argc, char** argv, const std::function<void(Console&)>& configure) {
  tune_malloc();
  std::vector<std::string> args(argv + 1, argv + argc);
  Console console = process_console();
  if (configure) configure(console);
  return run_agent_cli(args, console);
}

}  // namespace tfwsl::agent
