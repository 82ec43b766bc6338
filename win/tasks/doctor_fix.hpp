#pragma once
// `tfwsl doctor --fix`: the tfwsl commands that fix the report's root causes, in the order the
// doctor says to fix them (root_causes: "Fix first" first), as long as each root cause's fix is a
// tfwsl command (CheckResult::fix_command); the first that is not (a Windows driver to install)
// ends the list and is named. Shown first, then asked for on a terminal or taken with --yes;
// --dry-run stops after showing them. Each runs with --yes (the one question covered them all);
// afterwards the doctor runs again and says what changed.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/cli/command_line.hpp"
#include "common/util/shell_quote.hpp"

namespace tfwsl::cli {

// Runs one tfwsl command line (the arguments after "tfwsl") in this process; returns its exit code.
using RunTfwsl = std::function<int(const std::vector<std::string>& args)>;

struct FixPlan {
  std::vector<std::vector<std::string>> commands;  // tfwsl arguments, each run as given plus --yes
  std::vector<std::string> fixed_by;               // per command: the root causes it addresses ("wsl.distro")
  const CheckResult* stopped_at = nullptr;         // the first root cause tfwsl cannot fix by itself
};

// `extra_for(command)`: options the doctor passes on (its --profile to provision).
FixPlan plan_fixes(const Report& report,
                   const std::function<std::vector<std::string>(const std::vector<std::string>&)>& extra_for);

// The shell the plan's lines are quoted for: PowerShell on Windows, bash on the native Linux build.
Shell fix_shell();

// "tfwsl provision --profile 'C:\my team\t.yaml'": a command as a person would type it in `shell`,
// each argument quoted by common/util/shell_quote (a folder named `$(touch PWNED)` stays text), so
// it runs as printed; an argument with a control character is named instead (command_not_shown).
std::string command_text(const std::vector<std::string>& args, Shell shell = fix_shell());

// The doctor's options a fix command takes too, so that it fixes what the doctor looked at: the
// doctor's --profile (`profile`, empty when none was chosen) to provision, and its --distro
// (`distro`, empty for WSL's default) to the commands that act in a distro: data push, and
// wslconfig set --apply (which starts the distro to check the values took).
std::vector<std::string> options_passed_on(const std::vector<std::string>& command, const std::string& profile,
                                           const std::string& distro);

// One line per check whose status changed between the two reports: "wsl.distro: ✗ fail -> ✓ ok".
std::vector<std::string> report_changes(const Report& before, const Report& after, bool unicode_marks);

struct FixRequest {
  bool yes = false;
  bool dry_run = false;
};

struct FixOutcome {
  int exit_code = 0;             // 0 every command ran and succeeded; a failing command's; 2 declined or not asked
  std::size_t commands_run = 0;  // how many were started (the last may have failed)
};

// Shows the plan, asks, runs each command in turn until one fails.
FixOutcome apply_fixes(const FixPlan& plan, const FixRequest& request, Console& console, std::istream& answers,
                       const RunTfwsl& run_tfwsl);

}  // namespace tfwsl::cli
