#pragma once
// `tfwsl code` (docs/cli.md): the project's WSL copy made ready for VS Code's WSL remote (the
// interpreter and a debug configuration merged into .vscode/, win/migrate/vscode_files.hpp), the
// files read and written by the agent in the distro as its user, beneath the copy and through no
// link (tfwsl-agent project), each write only while the file is what was read; then VS Code opened
// there (`code --remote wsl+DISTRO PATH` from Windows, `code PATH` inside WSL).

#include <string>

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"
#include "win/tasks/project_run.hpp"

namespace tfwsl::cli {

struct VscodeRequest {
  RunRequest place;
  bool dry_run = false;
  bool yes = false;
  bool open = true;   // --no-open: write the files only
  std::string agent;  // --agent (the native build's tfwsl-agent)
};

// 0 done (or nothing to change), 2 refused or failed (the files are as they were), exit 125 when
// there is no migrated project.
int set_up_vscode(const VscodeRequest& request, Console& console, Machine& machine);

}  // namespace tfwsl::cli
