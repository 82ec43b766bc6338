#include "win/commands/uninstall_command.hpp"

#include <iostream>
#include <memory>

#include "common/cli/fitted_output.hpp"
#include "common/core/exit_codes.hpp"
#include "win/render/change_consent.hpp"
#include "win/tasks/uninstall_task.hpp"

namespace tfwsl::cli {
namespace {

struct UninstallArgs {
  UninstallSettings settings;
  bool dry_run = false;
  bool yes = false;
  bool json = false;
};

int finish(const UninstallReport& report, const UninstallArgs& args, Console& console, int code) {
  if (args.json) console.out << uninstall_json(report).dump(2) << "\n";
  return code;
}

int run_uninstall(const UninstallArgs& args, Console& console, Machine& machine) {
  UninstallTask task(args.settings, console, machine);
  UninstallReport report = task.list();
  report.dry_run = args.dry_run;
  // With --json the list is the JSON on stdout; the question and the progress go to stderr.
  std::ostream& words = args.json ? console.err : console.out;
  if (!args.json || report.to_remove() > 0) print_uninstall_plan(words, report, console.columns);
  if (report.to_remove() == 0 || args.dry_run) return finish(report, args, console, exit_code::k_ok);
  const ConsentRequest ask{"Remove these " + std::to_string(report.to_remove()) + " items?", args.yes, args.dry_run,
                           console.in_is_terminal && console.err_is_terminal};
  switch (ask_consent(ask, std::cin, console.err)) {
    case Consent::granted:
    case Consent::dry_run:
      break;
    case Consent::needs_yes:
      console.err << needs_yes_message("tfwsl uninstall", "remove them") << "\n";
      return finish(report, args, console, exit_code::k_failure);
    case Consent::declined:
      console.err << "tfwsl uninstall: nothing was removed\n";
      return finish(report, args, console, exit_code::k_failure);
  }
  task.remove(report, [&words](const UninstallEntry& e) { print_uninstall_step(words, e); });
  print_uninstall_outcome(words, report);
  return finish(report, args, console, report.failed() > 0 ? exit_code::k_failure : exit_code::k_ok);
}

}  // namespace

void register_uninstall_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<UninstallArgs>();
  auto* cmd = app.add_subcommand("uninstall", "Remove what tfwsl made (the agent, its state, backups, logs, venvs)");
  cmd->add_option("--distro", args->settings.distros,
                  "A distribution to clean (repeatable; default: every one WSL lists)")
      ->type_name("NAME");
  cmd->add_option("--wslconfig", args->settings.wslconfig,
                  "The .wslconfig whose backups to remove (default: %UserProfile%\\.wslconfig)")
      ->type_name("FILE");
  cmd->add_option(
         "--state-dir", args->settings.state_dir,
         "provision's state folder, if tfwsl-agent provision --state-dir named one (default: /var/lib/tfwsl/provision)")
      ->type_name("DIR");
  cmd->add_flag("--dry-run", args->dry_run, "List what would be removed and what is left alone; remove nothing");
  cmd->add_flag("-y,--yes", args->yes, "Remove without asking (needed when stdin is not a terminal)");
  cmd->add_flag("--json", args->json, "The list and each outcome as JSON (docs/schema/uninstall.schema.json)");
  cmd->footer(
      help_footer("Run it before removing tfwsl itself (winget and Scoop cannot run it for you). The .wslconfig "
                  "stays, and so does its first backup, which tfwsl wslconfig restore puts back.",
                  {"tfwsl uninstall --dry-run", "tfwsl uninstall --yes",
                   "tfwsl uninstall --distro Ubuntu-22.04 --dry-run --json"}));
  commands.add(cmd, [args, &console, &machine] {
    const FittedOutput fitted(console, !args->json);  // text at the terminal's width; JSON as it is
    return run_uninstall(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
