#include "win/cli/cli_app.hpp"

#include "win/commands/command_registry.hpp"

namespace tfwsl::cli {

int run_cli(const std::vector<std::string>& args, Console& console) {
  CLI::App app{"tfwsl: TensorFlow on your NVIDIA GPU from Windows, through WSL 2.\n"
               "Checks, sets up and keeps a WSL distro ready for TensorFlow; explains what goes wrong.",
               "tfwsl"};
  app.set_version_flag("--version", std::string("tfwsl ") + TFWSL_VERSION);
  app.require_subcommand(0, 1);
  app.footer("Exit status: 0 ok, 1 warnings only, 2 a problem or bad usage, 3 internal error.\n"
             "Run 'tfwsl COMMAND --help' for a command's options.");
  GlobalOptions globals;
  add_global_options(app, globals);
  CommandTable commands;
  register_commands(app, commands, console);
  return run_command_line(app, commands, args, console, globals, "tfwsl");
}

}  // namespace tfwsl::cli
