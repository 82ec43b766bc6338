#include "win/app/command_registry.hpp"

#include "win/commands/agent_command.hpp"
#include "win/commands/code_command.hpp"
#include "win/commands/completion_command.hpp"
#include "win/commands/data_command.hpp"
#include "win/commands/doctor_command.hpp"
#include "win/commands/dsc_command.hpp"
#include "win/commands/explain_command.hpp"
#include "win/commands/migrate_command.hpp"
#include "win/commands/notebook_command.hpp"
#include "win/commands/profile_command.hpp"
#include "win/commands/provision_command.hpp"
#include "win/commands/run_command.hpp"
#include "win/commands/uninstall_command.hpp"
#include "win/commands/wslconfig_command.hpp"
#include "win/commands/wslconfig_restore_command.hpp"

namespace tfwsl::cli {

// The order of `tfwsl --help`: the health check first, then setting up, then the parts.
void register_commands(CLI::App& app, CommandTable& commands, Console& console, Machine& machine,
                       const RunTfwsl& run_tfwsl, const RunTfwslCaptured& run_captured) {
  register_doctor_command(app, commands, console, machine, run_tfwsl);
  register_explain_command(app, commands, console);
  register_provision_command(app, commands, console, machine);
  register_migrate_command(app, commands, console, machine);
  register_run_commands(app, commands, console, machine);
  register_code_command(app, commands, console, machine);
  register_notebook_command(app, commands, console, machine);
  register_data_command(app, commands, console, machine);
  CLI::App* wslconfig = register_wslconfig_command(app, commands, console, machine);
  register_wslconfig_restore_command(wslconfig, commands, console, machine);
  register_profile_command(app, commands, console, machine);
  register_agent_command(app, commands, console, machine);
  register_uninstall_command(app, commands, console, machine);
  register_completion_command(app, commands, console, machine);
  register_dsc_command(app, commands, console, run_captured);
}

}  // namespace tfwsl::cli
