// `tfwsl --version`: the version line, then how this copy was installed and what upgrades it
// (win/host/install_method.hpp). This test binary runs in its build tree: "Built from source".
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "common/build_info/build_info.hpp"
#include "common/core/exit_codes.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/system_machine.hpp"
#include "win/platform/own_executable.hpp"

using namespace tfwsl;

TEST_CASE("tfwsl --version says the version, how it was installed and how to upgrade it") {
  std::ostringstream out, err;
  Console console{out, err, false};
  cli::SystemMachine system;
  cli::Machine machine = system.machine();
  CHECK(cli::run_cli({"--version"}, console, machine) == exit_code::k_ok);
  std::istringstream lines(out.str());
  std::string version, installed, upgrade, more;
  std::getline(lines, version);
  std::getline(lines, installed);
  std::getline(lines, upgrade);
  CHECK(version == build_info::version_line("tfwsl"));
  CHECK(installed == "Built from source (" + cli::own_executable_path() + ").");
  CHECK(upgrade.starts_with("To upgrade, build the newest release as docs/building.md says: https://"));
  CHECK_FALSE(std::getline(lines, more));
  CHECK(err.str().empty());
}
