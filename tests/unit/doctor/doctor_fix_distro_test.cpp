// `tfwsl doctor --distro X --fix` (issue 38, item 8): the fixes that act in a distro get `--distro X`
// too, or `data push` fills WSL's default distro while the doctor judged X.
#include <catch2/catch.hpp>

#include "win/doctor/data_location.hpp"
#include "win/tasks/doctor_fix.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;

TEST_CASE("doctor --distro X --fix passes --distro X to the fixes that act in a distro", "[doctor_fix]") {
  CHECK(options_passed_on({"data", "push", "C:\\d"}, "", "Ubuntu-22.04") ==
        std::vector<std::string>{"--distro", "Ubuntu-22.04"});
  CHECK(options_passed_on({"wslconfig", "set", "memory=8GB", "--apply"}, "", "Ubuntu-22.04") ==
        std::vector<std::string>{"--distro", "Ubuntu-22.04"});
  CHECK(options_passed_on({"wslconfig", "set", "memory=8GB"}, "", "Ubuntu-22.04").empty());
  CHECK(options_passed_on({"provision"}, "team.yaml", "Ubuntu-22.04") ==
        std::vector<std::string>{"--profile", "team.yaml"});
  CHECK(options_passed_on({"provision"}, "", "Ubuntu-22.04").empty());
  CHECK(options_passed_on({"data", "push", "C:\\d"}, "team.yaml", "").empty());  // no --distro: WSL's default

  Report report;
  report.checks.push_back(doctor::check_data_paths({"C:\\my data"}));
  const FixPlan plan = plan_fixes(report, [](const auto& command) { return options_passed_on(command, "", "Debian"); });
  REQUIRE(plan.commands.size() == 1);
  CHECK(plan.commands[0] == std::vector<std::string>{"data", "push", "C:\\my data", "--distro", "Debian"});
}

TEST_CASE("doctor --fix: the plan's lines are quoted for the shell of this platform, the one its heading names",
          "[doctor_fix]") {
  CHECK(command_text({"provision", "--profile", "it's.yaml"}, Shell::powershell) ==
        "tfwsl provision --profile 'it''s.yaml'");
  CHECK(command_text({"provision", "--profile", "it's.yaml"}, Shell::bash) ==
        "tfwsl provision --profile 'it'\\''s.yaml'");
  CHECK(command_text({"x"}) == command_text({"x"}, fix_shell()));
}
