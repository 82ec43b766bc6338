#pragma once
// `tfwsl completion bash|powershell`: a shell completion script made from the command table the
// parser itself uses (the CLI11 app and its subcommands), so that it cannot drift from it: every
// command's subcommands and options, looked up by the commands already typed.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tfwsl {

// One command of the tree: "wslconfig set" ("" for the program itself), what may follow it.
struct CompletionEntry {
  std::string path;
  std::vector<std::string> words;  // its subcommands, then its options (long and short spellings)
};

// Every command of `app`, depth first, with its own options and the ones it inherits (the globals).
std::vector<CompletionEntry> completion_entries(const CLI::App& app);

// For bash (`source <(tfwsl completion bash)`), completing `program`.
std::string bash_completion_script(const CLI::App& app, const std::string& program);

// For PowerShell (`tfwsl completion powershell | Out-String | Invoke-Expression`), completing
// `program` and `program.exe`.
std::string powershell_completion_script(const CLI::App& app, const std::string& program);

}  // namespace tfwsl
