#include "win/app/cli_app.hpp"

#include <sstream>

#include "common/build_info/build_info.hpp"
#include "common/cli/help_formatter.hpp"
#include "win/app/command_registry.hpp"
#include "win/fleet/tfwsl_invoker.hpp"
#include "win/host/install_method.hpp"
#include "win/platform/install_places.hpp"

namespace tfwsl::cli {

namespace {

// Another command line in this process, on string streams: no terminal (nothing asks; the output is
// for a program), the caller's environment, the same machine.
Invocation run_captured(const std::vector<std::string>& args, const Console& caller, Machine& machine) {
  std::ostringstream out, err;
  Console console{out, err, false, false, false, caller.environment};
  const int code = run_cli(args, console, machine);
  return Invocation{code, out.str(), err.str()};
}

}  // namespace

int run_cli(const std::vector<std::string>& args, Console& console, Machine& machine) {
  CLI::App app{
      "tfwsl: TensorFlow on your NVIDIA GPU from Windows, through WSL 2.\n"
      "Checks, sets up and keeps a WSL distro ready for TensorFlow; explains what goes wrong.",
      "tfwsl"};
  use_wrapping_help(app, console.columns);  // before the commands: they inherit it
  // Read only when asked: the executable's path and the install folders (install_method.hpp).
  app.set_version_flag(
      "--version",
      [] { return build_info::version_line("tfwsl") + "\n" + install_and_upgrade_words(read_install_places()); },
      "Show the version, how this copy was installed and what upgrades it");
  app.require_subcommand(0, 1);
  app.footer(help_footer(exit_status_table() + "\n\nRun 'tfwsl COMMAND --help' for a command's options.",
                         {"tfwsl doctor                   check this machine for TensorFlow on the GPU",
                          "tfwsl doctor -v                the same, with the facts behind each line",
                          "tfwsl explain pasted-error.txt what a pasted error means and what to do"}));
  GlobalOptions globals;
  add_global_options(app, globals);
  CommandTable commands;
  const RunTfwsl run_here = [&console, &machine](const std::vector<std::string>& more) {
    return run_cli(more, console, machine);
  };
  register_commands(
      app, commands, console, machine, run_here,
      [&console, &machine](const std::vector<std::string>& more) { return run_captured(more, console, machine); });
  return run_command_line(app, commands, args, console, globals, "tfwsl");
}

}  // namespace tfwsl::cli
