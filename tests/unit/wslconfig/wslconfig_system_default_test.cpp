// Issue 38, item 6, through the command: with SYSTEM's profile and no --file, `wslconfig set`
// refuses, saying to run as the user (wslconfig_account_test.cpp has the decision's table).
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "tests/support/captured_run.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/system_machine.hpp"

using namespace tfwsl;

TEST_CASE("wslconfig set with SYSTEM's profile and no --file is refused, saying to run as the user") {
  const std::map<std::string, std::string> vars{{"USERPROFILE", "C:\\Windows\\system32\\config\\systemprofile"}};
  std::ostringstream out, err;
  Console console{out, err, false};
  console.environment = [&vars](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  cli::SystemMachine system;
  cli::Machine machine = system.machine();
  const int code = cli::run_cli({"wslconfig", "set", "memory=4GB", "--yes"}, console, machine);
  CHECK(code != 0);
  CHECK(err.str().find("runs as SYSTEM") != std::string::npos);
  CHECK(test::unwrapped(err.str()).find("run this as that user") != std::string::npos);
}
