#pragma once
// Writing a file a profile command produces (`profile init`, `profile export -o`), with the
// consent conventions of every command that changes something (docs/cli.md, "Conventions"):
// --dry-run prints what would be written and writes nothing; an existing file is replaced only
// with --yes, or after a yes on a terminal; the write goes to a temporary file in the same folder
// first and is renamed over the target, so a reader never sees half a profile.

#include <functional>
#include <optional>
#include <string>

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

struct ConsentedWrite {
  std::string command;  // "tfwsl profile init", for messages
  std::string path;     // UTF-8
  std::string text;
  bool yes = false;
  bool dry_run = false;
  // The answer to "overwrite?" on a terminal; empty: a line of standard input.
  std::function<std::optional<std::string>()> read_answer;
};

// Exit status: 0 written (or shown by --dry-run), 2 refused or failed (the reason on stderr).
int write_with_consent(const ConsentedWrite& write, Console& console);

}  // namespace tfwsl::cli
