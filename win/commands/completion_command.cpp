#include "win/commands/completion_command.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "common/core/exit_codes.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/profile/profile_source.hpp"
#include "win/render/completion_script.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

struct CompletionArgs {
  std::string shell;
  std::string list;
};

// Only names a shell can take as one plain word are offered: a name with a space, a quote or a
// control character would be typed into the user's command line as something else.
bool plain_word(const std::string& name) {
  if (name.empty()) return false;
  for (unsigned char c : name)
    if (!(std::isalnum(c) || c == '.' || c == '-' || c == '_')) return false;
  return true;
}

// The names a list holds on this machine, one a line; none when it cannot be read (a completion
// never prints an error into the user's command line).
std::vector<std::string> list_names(const std::string& list, wsl::WslClient& wsl) {
  std::vector<std::string> names;
  if (list == "profiles") names = shipped_profile_names();
  if (list == "distros") {
    auto reply = wsl.list_verbose();
    if (reply && reply->failure.kind == wsl::WslFailureKind::none)
      for (const auto& d : parse::parse_wsl_list(reply->text).distros) names.push_back(d.name);
  }
  std::erase_if(names, [](const std::string& n) { return !plain_word(n); });
  return names;
}

std::string script_for(const std::string& shell, const CLI::App& root) {
  if (shell == "bash") return bash_completion_script(root, "tfwsl");
  if (shell == "zsh") return zsh_completion_script(root, "tfwsl");
  if (shell == "fish") return fish_completion_script(root, "tfwsl");
  return powershell_completion_script(root, "tfwsl");
}

}  // namespace

void register_completion_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<CompletionArgs>();
  auto* cmd = app.add_subcommand("completion", "Print a shell completion script for tfwsl's commands and options");
  cmd->add_option("shell", args->shell, "bash, zsh, fish or powershell")
      ->check(CLI::IsMember({"bash", "zsh", "fish", "powershell"}));
  cmd->add_option("--list", args->list, "Print the names a value may take, one a line (what the scripts call)")
      ->check(CLI::IsMember(completion_lists()));
  cmd->footer(help_footer("", {"source <(tfwsl completion bash)         in bash (or in ~/.bashrc)",
                               "source <(tfwsl completion zsh)          in zsh (~/.zshrc)",
                               "tfwsl completion fish | source          in fish",
                               "tfwsl completion powershell | Out-String | Invoke-Expression  (PowerShell)"}));
  // The whole tree is there by the time a command runs: the script lists it as the parser has it.
  CLI::App* root = &app;
  commands.add(cmd, [args, root, &console, &machine] {
    if (args->shell.empty() == args->list.empty()) {
      console.err << "tfwsl completion: give a shell (bash, zsh, fish or powershell), or --list distros|profiles\n";
      return exit_code::k_usage;
    }
    // Read by a Unix shell (`source <(tfwsl.exe ...)`, `$(...)` in bash, zsh and fish): no CR.
    if (args->shell != "powershell" && console.out_as_bytes) console.out_as_bytes();
    if (!args->list.empty()) {
      for (const auto& name : list_names(args->list, machine.wsl)) console.out << name << "\n";
      return exit_code::k_ok;
    }
    console.out << script_for(args->shell, *root);
    return exit_code::k_ok;
  });
}

}  // namespace tfwsl::cli
