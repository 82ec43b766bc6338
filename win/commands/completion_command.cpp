#include "win/commands/completion_command.hpp"

#include <memory>

#include "common/cli/completion_script.hpp"
#include "common/core/exit_codes.hpp"

namespace tfwsl::cli {

void register_completion_command(CLI::App& app, CommandTable& commands, Console& console) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("completion", "Print a shell completion script for tfwsl's commands and options");
  cmd->add_option("shell", *shell, "bash or powershell")->required()->check(CLI::IsMember({"bash", "powershell"}));
  cmd->footer(help_footer("", {"source <(tfwsl completion bash)                           in bash (or in ~/.bashrc)",
                               "tfwsl completion powershell | Out-String | Invoke-Expression   in PowerShell ($PROFILE)"}));
  // The whole tree is there by the time a command runs: the script lists it as the parser has it.
  CLI::App* root = &app;
  commands.add(cmd, [shell, root, &console] {
    if (*shell == "bash" && console.out_as_bytes) console.out_as_bytes();  // `source <(tfwsl.exe ...)`: no CR
    console.out << (*shell == "bash" ? bash_completion_script(*root, "tfwsl") : powershell_completion_script(*root, "tfwsl"));
    return exit_code::k_ok;
  });
}

}  // namespace tfwsl::cli
