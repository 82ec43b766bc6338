#include "linux/app/agent_program.hpp"

#include <memory>
#include <string>
#include <vector>

#include "common/cli/process_console.hpp"
#include "common/process/process_runner.hpp"
#include "common/process/stoppable_process_runner.hpp"
#include "linux/agent/malloc_tuning.hpp"
#include "linux/app/agent_app.hpp"

namespace tfwsl::agent {

int run_agent_program(int argc, char** argv, const ConfigureAgent& configure) {
  tune_malloc();
  std::vector<std::string> args(argv + 1, argv + argc);
  Console console = process_console();
  SystemProcessRunner processes;
  AgentMachine machine{
      processes, [](std::stop_token stop) { return std::make_shared<StoppableProcessRunner>(std::move(stop)); }, {}};
  if (configure) configure(console, machine);
  return run_agent_cli(args, console, machine);
}

}  // namespace tfwsl::agent
