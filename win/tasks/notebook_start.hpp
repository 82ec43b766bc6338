#pragma once
// `tfwsl notebook` (docs/cli.md): the migrated project's venv registered as a Jupyter kernel for the
// distro user (by ipykernel's own installer, `python -m ipykernel install --user`, which writes
// ~/.local/share/jupyter/kernels/NAME/kernel.json where Jupyter and VS Code look), with the recorded
// environment; then JupyterLab started in the WSL copy on loopback with a token, its URL printed
// (WSL forwards localhost, so the Windows browser reaches it). What the venv lacks (ipykernel,
// jupyterlab) is installed with pip after the plan says so and the user agrees.

#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"
#include "win/tasks/project_run.hpp"

namespace tfwsl::cli {

struct NotebookRequest {
  RunRequest place;
  bool dry_run = false;
  bool yes = false;
  bool start = true;  // --no-start: the kernel only
  unsigned port = 8888;
};

// The kernel's name for Jupyter: "tfwsl-NAME-PROFILE", lower case, letters, digits, '.', '_', '-'.
std::string kernel_name(const migrate::WslCopyRecord& record);

// The venv's missing modules among ipykernel and jupyterlab (jupyterlab only when it is to start).
std::vector<std::string> missing_notebook_modules(const std::string& probe_output, bool start);

// 0 done (JupyterLab's own status once it ran), 2 refused or failed, 125 no migrated project.
int start_notebook(const NotebookRequest& request, Console& console, Machine& machine);

}  // namespace tfwsl::cli
