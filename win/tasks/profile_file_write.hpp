#pragma once
// Writing a file a profile command produces (`profile init`, `profile export -o`), with the
// consent conventions of every command that changes something (docs/cli.md, "Conventions";
// win/render/change_consent.hpp): --dry-run prints what would be written and writes nothing; an
// existing file is replaced only with --yes, or after a yes on a terminal; the bytes go through
// replace_file_atomically (common/util/atomic_file.hpp), so a reader never sees half a profile.

#include <iosfwd>
#include <string>

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

struct ConsentedWrite {
  std::string command;  // "tfwsl profile init", for messages
  std::string path;     // UTF-8
  std::string text;
  bool yes = false;
  bool dry_run = false;
};

// Exit status: 0 written (or shown by --dry-run), 2 refused or failed (the reason on stderr).
// `answers`: where a question on a terminal is answered (standard input).
int write_with_consent(const ConsentedWrite& write, Console& console, std::istream& answers);

}  // namespace tfwsl::cli
