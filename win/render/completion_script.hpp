#pragma once
// `tfwsl completion bash|zsh|fish|powershell`: a shell completion script made from the command
// table the parser itself uses (the CLI11 app and its subcommands), so that it cannot drift from it:
// every command's subcommands and options, looked up by the commands already typed, and the values
// an option takes: a closed set from its validator (`--color auto|always|never`), or a list the
// program prints when asked (`PROGRAM completion --list distros|profiles`), for the values that
// depend on the machine.

#include <CLI/CLI.hpp>
#include <string>
#include <utility>
#include <vector>

namespace tfwsl {

// What may follow one option of a command.
struct ValueCompletion {
  std::vector<std::string> spellings;  // "--color" (its long and short spellings)
  std::vector<std::string> choices;    // a closed set, from the option's validator
  std::string list;                    // or one of completion_lists(), printed by the program
};

// One command of the tree: "wslconfig set" ("" for the program itself), what may follow it.
struct CompletionEntry {
  std::string path;
  std::vector<std::string> words;  // its subcommands, its positionals' closed sets, its options
  std::vector<ValueCompletion> values;
};

// The lists `completion --list NAME` prints: "distros" (WSL's distributions), "profiles" (the
// shipped profiles' names).
const std::vector<std::string>& completion_lists();

// "wslconfig set" as {"wslconfig", "set"}: the command above and the word that leads to it.
std::pair<std::string, std::string> split_command_path(const std::string& path);

// Every command of `app`, depth first, with its own options and the ones it inherits (the globals).
std::vector<CompletionEntry> completion_entries(const CLI::App& app);

// For bash (`source <(tfwsl completion bash)`), completing `program`.
std::string bash_completion_script(const CLI::App& app, const std::string& program);

// For zsh (`source <(tfwsl completion zsh)`): the bash function through zsh's bashcompinit.
std::string zsh_completion_script(const CLI::App& app, const std::string& program);

// For fish (`tfwsl completion fish | source`), completing `program` and `program.exe`.
std::string fish_completion_script(const CLI::App& app, const std::string& program);

// For PowerShell (`tfwsl completion powershell | Out-String | Invoke-Expression`), completing
// `program` and `program.exe`.
std::string powershell_completion_script(const CLI::App& app, const std::string& program);

}  // namespace tfwsl
