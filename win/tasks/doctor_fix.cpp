#include "win/tasks/doctor_fix.hpp"

#include <algorithm>
#include <istream>
#include <ostream>

#include "common/check/check_fold.hpp"
#include "common/core/exit_codes.hpp"
#include "win/render/change_consent.hpp"

namespace tfwsl::cli {

FixPlan plan_fixes(const Report& report,
                   const std::function<std::vector<std::string>(const std::vector<std::string>&)>& extra_for) {
  FixPlan plan;
  for (const CheckResult* root : root_causes(report)) {
    if (root->fix_command.empty()) {
      plan.stopped_at = root;
      break;
    }
    std::vector<std::string> command = root->fix_command;
    if (extra_for)
      for (auto& e : extra_for(command)) command.push_back(std::move(e));
    auto same = std::find(plan.commands.begin(), plan.commands.end(), command);
    if (same != plan.commands.end()) {
      plan.fixed_by[same - plan.commands.begin()] += ", " + root->id;  // one run fixes both
      continue;
    }
    plan.commands.push_back(std::move(command));
    plan.fixed_by.push_back(root->id);
  }
  return plan;
}

Shell fix_shell() {
#ifdef _WIN32
  return Shell::powershell;
#else
  return Shell::bash;
#endif
}

std::string command_text(const std::vector<std::string>& args, Shell shell) {
  std::vector<std::string> argv{"tfwsl"};
  argv.insert(argv.end(), args.begin(), args.end());
  return shell_command(shell, argv);
}

std::vector<std::string> options_passed_on(const std::vector<std::string>& command, const std::string& profile,
                                           const std::string& distro) {
  if (command.empty()) return {};
  if (command.front() == "provision" && !profile.empty()) return {"--profile", profile};
  const bool in_distro =
      (command.size() >= 2 && command[0] == "data" && command[1] == "push") ||
      (command[0] == "wslconfig" && std::find(command.begin(), command.end(), "--apply") != command.end());
  if (in_distro && !distro.empty()) return {"--distro", distro};
  return {};
}

std::vector<std::string> report_changes(const Report& before, const Report& after, bool unicode_marks) {
  std::vector<std::string> lines;
  for (const auto& now : after.checks) {
    const CheckResult* then = before.find(now.id);
    if (!then || then->status == now.status) continue;
    lines.push_back(now.id + ": " + status_mark(then->status, unicode_marks) + " " + to_string(then->status) + " -> " +
                    status_mark(now.status, unicode_marks) + " " + to_string(now.status));
  }
  return lines;
}

namespace {

void show_plan(const FixPlan& plan, Console& console) {
  console.out << "\ntfwsl doctor --fix runs, in this order (as " << to_string(fix_shell()) << " takes them):\n";
  for (std::size_t i = 0; i < plan.commands.size(); ++i)
    console.out << "  " << command_text(plan.commands[i]) << "   (" << plan.fixed_by[i] << ")\n";
  if (plan.stopped_at)
    console.out << "and stops before " << plan.stopped_at->id
                << ", which tfwsl cannot fix by itself: " << plan.stopped_at->fix << "\n";
}

bool consented(const FixPlan& plan, const FixRequest& request, Console& console, std::istream& answers, int& code) {
  const std::string what = plan.commands.size() == 1 ? "run it" : "run them";
  const ConsentRequest ask{"Run " + std::string(plan.commands.size() == 1 ? "this command" : "these commands") + "?",
                           request.yes, request.dry_run, console.in_is_terminal && console.err_is_terminal};
  switch (ask_consent(ask, answers, console.err)) {
    case Consent::granted:
      return true;
    case Consent::dry_run:
      code = exit_code::k_ok;
      return false;
    case Consent::needs_yes:
      console.err << needs_yes_message("tfwsl doctor --fix", what) << "\n";
      code = exit_code::k_failure;
      return false;
    case Consent::declined:
      console.err << "tfwsl doctor --fix: nothing was run\n";
      code = exit_code::k_failure;
      return false;
  }
  return false;
}

}  // namespace

FixOutcome apply_fixes(const FixPlan& plan, const FixRequest& request, Console& console, std::istream& answers,
                       const RunTfwsl& run_tfwsl) {
  FixOutcome outcome;
  if (plan.commands.empty()) {
    if (plan.stopped_at)
      console.out << "\ntfwsl doctor --fix: " << plan.stopped_at->id
                  << " is not something tfwsl can fix by itself: " << plan.stopped_at->fix << "\n";
    return outcome;
  }
  show_plan(plan, console);
  if (!consented(plan, request, console, answers, outcome.exit_code)) return outcome;
  for (const auto& command : plan.commands) {
    std::vector<std::string> args = command;
    args.push_back("--yes");
    console.out << "\n$ " << command_text(args) << "\n" << std::flush;
    ++outcome.commands_run;
    const int status = run_tfwsl(args);
    if (status != exit_code::k_ok && status != exit_code::k_warning) {
      console.err << "tfwsl doctor --fix: " << command_text(args) << " failed (exit " << status
                  << "); the commands after it were not run\n";
      outcome.exit_code = status;
      return outcome;
    }
  }
  return outcome;
}

}  // namespace tfwsl::cli
