#include "linux/app/agent_app.hpp"

#include "common/build_info/build_info.hpp"
#include "common/cli/help_formatter.hpp"
#include "linux/app/command_registry.hpp"

namespace tfwsl::agent {

int run_agent_cli(const std::vector<std::string>& args, Console& console, AgentMachine& machine) {
  CLI::App app{
      "tfwsl-agent: the Linux half of tfwsl. Runs inside the WSL distro, answers the tfwsl CLI\n"
      "over a token-protected loopback API, and checks the GPU, CUDA and TensorFlow stack.",
      "tfwsl-agent"};
  use_wrapping_help(app, console.columns);  // before the commands: they inherit it
  app.set_version_flag("--version", build_info::version_line("tfwsl-agent"));
  app.require_subcommand(0, 1);
  app.footer(help_footer(exit_status_table() + "\n\nRun 'tfwsl-agent COMMAND --help' for a command's options.",
                         {"tfwsl-agent check                    check this distro's GPU, CUDA and TensorFlow",
                          "tfwsl-agent check -v --python ~/.venvs/tf/bin/python",
                          "tfwsl-agent dataset import --source /mnt/c/data --target ~/data"}));
  GlobalOptions globals;
  add_global_options(app, globals);
  CommandTable commands;
  register_commands(app, commands, console, machine);
  return run_command_line(app, commands, args, console, globals, "tfwsl-agent");
}

}  // namespace tfwsl::agent
