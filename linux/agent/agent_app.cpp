#include "linux/agent/agent_app.hpp"

#include "linux/commands/command_registry.hpp"

namespace tfwsl::agent {

int run_agent_cli(const std::vector<std::string>& args, Console& console) {
  CLI::App app{"tfwsl-agent: the Linux half of tfwsl. Runs inside the WSL distro, answers the tfwsl CLI\n"
               "over a token-protected loopback API, and checks the GPU, CUDA and TensorFlow stack.",
               "tfwsl-agent"};
  app.set_version_flag("--version", std::string("tfwsl-agent ") + TFWSL_VERSION);
  app.require_subcommand(0, 1);
  app.footer("Exit status: 0 ok, 1 warnings only, 2 a problem or bad usage, 3 internal error.\n"
             "Run 'tfwsl-agent COMMAND --help' for a command's options.");
  GlobalOptions globals;
  add_global_options(app, globals);
  CommandTable commands;
  register_commands(app, commands, console);
  return run_command_line(app, commands, args, console, globals, "tfwsl-agent");
}

}  // namespace tfwsl::agent
