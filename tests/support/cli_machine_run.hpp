#pragma once
// `tfwsl` as the tests run it in process (cli::run_cli), with the machine its main would build,
// every port real. Pass it to run_captured (captured_run.hpp).

#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/system_machine.hpp"

namespace tfwsl::test {

inline int tfwsl_cli(const std::vector<std::string>& args, Console& console) {
  cli::SystemMachine system;
  cli::Machine machine = system.machine();
  return cli::run_cli(args, console, machine);
}

}  // namespace tfwsl::test
