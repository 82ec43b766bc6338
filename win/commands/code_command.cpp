// tfwsl code: thin; the merge and the writes are win/tasks/vscode_setup.
#include "win/commands/code_command.hpp"

#include <memory>

#include "common/cli/fitted_output.hpp"
#include "win/tasks/vscode_setup.hpp"

namespace tfwsl::cli {

void register_code_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<VscodeRequest>();
  args->place.verb = "tfwsl code";
  auto* code = app.add_subcommand(
      "code", "Open the migrated project in VS Code in WSL, with its venv's interpreter and a debug configuration");
  code->add_option("--project", args->place.project,
                   "The migrated project: its Windows folder or its WSL copy (default: the one this folder is in)")
      ->type_name("DIR");
  code->add_flag("--dry-run", args->dry_run,
                 "Print what would be merged into .vscode/ and the command; change nothing");
  code->add_flag("-y,--yes", args->yes, "Write .vscode/ without asking");
  code->add_flag(
      "--no-open", [args](std::int64_t) { args->open = false; }, "Write the files only; do not start VS Code");
  code->add_option("--agent", args->agent, "The tfwsl-agent binary (as for tfwsl doctor)");
  code->footer(
      help_footer("Merges into .vscode/settings.json and launch.json of the WSL copy, keeping every key and "
                  "configuration of yours; a file with comments is left as it is, with what to add by hand.",
                  {"tfwsl code", "tfwsl code --dry-run", "tfwsl code --project C:\\work\\flowers --yes"}));
  commands.add(code, [args, &console, &machine] {
    const FittedOutput fitted(console, true);
    return set_up_vscode(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
