// tfwsl notebook: thin; the kernel and the start are win/tasks/notebook_start.
#include "win/commands/notebook_command.hpp"

#include <memory>

#include "win/tasks/notebook_start.hpp"

namespace tfwsl::cli {

void register_notebook_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<NotebookRequest>();
  args->place.verb = "tfwsl notebook";
  auto* notebook = app.add_subcommand(
      "notebook", "Register the migrated project's venv as a Jupyter kernel and start JupyterLab in WSL");
  notebook
      ->add_option("--project", args->place.project,
                   "The migrated project: its Windows folder or its WSL copy (default: the one this folder is in)")
      ->type_name("DIR");
  notebook->add_flag("--dry-run", args->dry_run,
                     "Print what would be installed, registered and started; change nothing");
  notebook->add_flag("-y,--yes", args->yes, "Install what the venv lacks and register the kernel without asking");
  notebook->add_flag(
      "--no-start", [args](std::int64_t) { args->start = false; }, "Register the kernel only");
  notebook->add_option("--port", args->port, "JupyterLab's port on loopback")
      ->check(CLI::Range(1024, 65535))
      ->capture_default_str();
  notebook->footer(
      help_footer("JupyterLab listens on 127.0.0.1 in WSL with a new token; WSL forwards localhost, so "
                  "the printed URL opens in the Windows browser. Ctrl-C stops it.",
                  {"tfwsl notebook", "tfwsl notebook --no-start --yes", "tfwsl notebook --port 8899"}));
  commands.add(notebook, [args, &console, &machine] { return start_notebook(*args, console, machine); });
}

}  // namespace tfwsl::cli
