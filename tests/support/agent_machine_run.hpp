#pragma once
// `tfwsl-agent` as the tests run it in process (agent::run_agent_cli), with the machine its main
// would build: every port real, no step observer. Pass agent_cli to run_captured (captured_run.hpp).

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "common/process/process_runner.hpp"
#include "common/process/stoppable_process_runner.hpp"
#include "linux/agent/agent_machine.hpp"
#include "linux/app/agent_app.hpp"

namespace tfwsl::test {

struct AgentTestMachine {
  SystemProcessRunner processes;
  agent::AgentMachine machine{
      processes, [](std::stop_token stop) { return std::make_shared<StoppableProcessRunner>(std::move(stop)); }, {}};
};

inline int agent_cli(const std::vector<std::string>& args, Console& console) {
  AgentTestMachine test_machine;
  return agent::run_agent_cli(args, console, test_machine.machine);
}

}  // namespace tfwsl::test
