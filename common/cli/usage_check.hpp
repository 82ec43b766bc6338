#pragma once
// The mistakes on a command line that CLI11 would report without naming the command or a
// correction ("The following argument was not expected: --jsn", "A subcommand is required"),
// found before CLI11 parses, so that the message says the program, the command and "did you mean".

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tfwsl {

struct UsageCheck {
  std::string command;                 // "tfwsl explain", "tfwsl-agent dataset": the deepest command named
  std::optional<std::string> mistake;  // the whole message for stderr, when there is one
  // A command that runs another (CLI11's prefix command: tfwsl run): where that command's words
  // start, its first word that is not an option of ours (or the word after `--`). They are passed
  // on untouched, never parsed as tfwsl's.
  std::optional<std::size_t> passthrough_from;
  bool runs_another = false;  // the deepest command named is such a command: its usage errors are 125
};

// Walks args (without the program name) the way CLI11 will: options of the command named so far
// and, as the global options fall through, of the commands above it; option values; subcommands.
// Finds an unknown option, an unknown subcommand, and a missing subcommand where one is required.
UsageCheck check_usage(CLI::App& app, const std::vector<std::string>& args);

}  // namespace tfwsl
