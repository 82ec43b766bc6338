#pragma once
// `tfwsl run` and `tfwsl shell` (docs/cli.md): a command in a migrated project's WSL copy, in its
// venv with its environment, from Windows through wsl.exe or natively inside the distro. The project
// is found from the folder (its Windows original or its WSL copy: the nearest .tfwsl/wsl-copy.json
// above it, migrate's record), the Windows paths in the command are translated
// (win/migrate/run_arguments.hpp), the environment is judged from what is cheap and sure (the
// recorded GPU verdict here, the venv's python on the Linux side as the command starts), and the
// command takes over the terminal (win/platform/attached_process.hpp).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "common/core/error.hpp"
#include "win/migrate/run_arguments.hpp"
#include "win/migrate/wsl_copy_record.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct RunRequest {
  std::string project;                                // --project; empty: the project of the current folder
  std::vector<std::string> command;                   // empty: an interactive shell (tfwsl shell)
  std::string verb = "tfwsl run";                     // for messages
  std::map<std::string, std::string> extra_env = {};  // set over the recorded environment (a notebook's token)
};

// Where and what a run starts, as found and translated; nothing has run.
struct RunPlace {
  migrate::WslCopyRecord record;
  std::string record_file;  // the record found, a path of this machine
  bool here = false;        // natively: the command runs in this Linux, not through wsl.exe
  std::string folder;       // the folder in the WSL copy it runs in
  migrate::TranslatedArguments command;
  AttachedRequest launch;  // what starts: wsl.exe --exec ..., or /usr/bin/env ... here
};

// Errors (invalid_input, naming the folder or the path and the fix): no migrated project at or
// above the folder, a record that is not migrate's, a Windows path in the command no rule reaches.
Result<RunPlace> find_run_place(const RunRequest& request, Machine& machine);

// Why the environment cannot run the command, judged without starting anything: the recorded GPU
// check failed. Nothing when it may run.
std::optional<std::string> unhealthy_reason(const migrate::WslCopyRecord& record);

// "GPU: checked 3 days ago (...)": the recorded verdict and its age at `now` (seconds since 1970).
std::string gpu_words(const migrate::RecordedGpuCheck& gpu, std::int64_t now);

// The first line on stderr: where the command runs.
std::string where_line(const RunPlace& place, std::int64_t now);

// `--where --json` (docs/schema/run-where.schema.json, envelope added by the caller).
nlohmann::json where_json(const RunPlace& place, std::int64_t now);

// Starts the command and waits: its exit status, or exit_code::k_run_refused when it could not start.
int run_attached(const RunPlace& place, Machine& machine, Console& console, const std::string& verb);

}  // namespace tfwsl::cli
