// `tfwsl doctor --fix` (issue 38, item 8): its plan is printed for a person to read and to run, so
// each argument is quoted for the shell the heading names (a folder `C:\my data\$(touch PWNED)` is
// one word that runs nothing), and `--distro X` goes on to the fixes that act in a distro, or
// `data push` would fill WSL's default distro.
#include "win/tasks/doctor_fix.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "win/doctor/data_location.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;

namespace {

const std::string k_hostile_folder = "C:\\my data\\$(touch PWNED)";
// Quoted alike by bash and PowerShell: single quotes, nothing inside them expands.
const std::string k_quoted = "tfwsl data push 'C:\\my data\\$(touch PWNED)'";

Report data_report() {
  Report report;
  report.checks.push_back(doctor::check_data_paths({k_hostile_folder}));
  return report;
}

}  // namespace

TEST_CASE("doctor --fix: the plan quotes each argument for the shell it names, and runs it as given", "[doctor_fix]") {
  CHECK(command_text({"data", "push", k_hostile_folder}) == k_quoted);
  CHECK(command_text({"data", "push", "C:\\x\x1b]0;OWNED\x07"})
            .rfind("(command not shown: its argument 'C:\\x\\x1b]0;OWNED\\x07'", 0) == 0);

  const FixPlan plan = plan_fixes(data_report(), nullptr);
  REQUIRE(plan.commands.size() == 1);
  std::ostringstream out, err;
  Console console{out, err};
  std::istringstream no_answers;
  std::vector<std::vector<std::string>> ran;
  const FixOutcome outcome = apply_fixes(plan, {true, false}, console, no_answers, [&ran](const auto& args) {
    ran.push_back(args);
    return 0;
  });
  CHECK(outcome.commands_run == 1);
  INFO(out.str());
  CHECK(out.str().find(" takes them):\n  " + k_quoted + "   (data.location)\n") != std::string::npos);
  CHECK(out.str().find("$ " + k_quoted + " --yes\n") != std::string::npos);
  CHECK(out.str().find("push C:\\my data") == std::string::npos);  // never bare
  CHECK(ran == std::vector<std::vector<std::string>>{{"data", "push", k_hostile_folder, "--yes"}});
}

TEST_CASE("doctor --fix: the host-side data.location fix line is quoted for PowerShell", "[doctor_fix]") {
  const CheckResult r = doctor::check_data_paths({k_hostile_folder});
  CHECK(r.fix.find(k_quoted + " (it lands in ~/datasets)") != std::string::npos);
  CHECK(r.fix_command == std::vector<std::string>{"data", "push", k_hostile_folder});
}
