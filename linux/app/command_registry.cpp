#include "linux/app/command_registry.hpp"

#include "linux/commands/check_command.hpp"
#include "linux/commands/dataset_command.hpp"
#include "linux/commands/probe_libraries_command.hpp"
#include "linux/commands/project_command.hpp"
#include "linux/commands/provision_command.hpp"
#include "linux/commands/serve_command.hpp"
#include "linux/commands/venv_command.hpp"

namespace tfwsl::agent {

// Subcommands register themselves here as they are added (serve, check, dataset, ...).
void register_commands(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine) {
  register_serve_command(app, commands, console, machine);
  register_check_command(app, commands, console, machine);
  register_dataset_command(app, commands, console, machine);
  register_provision_command(app, commands, console, machine);
  register_venv_command(app, commands, console, machine);
  register_project_command(app, commands, console);
  register_probe_libraries_command(app, commands, console);
}

}  // namespace tfwsl::agent
