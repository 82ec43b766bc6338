#pragma once
// Applying a migration plan (docs/migrate.md, "Applying"): the steps in order, each through
// MigrationPorts, each recorded when done in <project>/.tfwsl/migrate-state.json inside the WSL
// copy (apply_record.hpp), so that an interrupted run resumes after its last finished step and a
// second run of the same plan changes nothing; a step an earlier run finished is re-checked
// cheaply and run again when the re-check fails (apply_steps.hpp). A different plan (the
// requirements changed) runs the steps again, and the copy then replaces only what the user has
// not changed in WSL (project_update.hpp).

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/migrate/migrate_plan.hpp"
#include "win/migrate/migration_ports.hpp"

namespace tfwsl::migrate {

struct StepResult {
  std::string
      step;  // "provision", "write-requirements", "copy-project", "import:<name>", "install", "check", "write-files"
  bool ran = false;  // false: done by an earlier run, and its re-check found it still good
  std::string detail;
};

struct ApplyOptions {
  std::string project_windows_path;  // the folder the user passed
  bool copy_git = false;             // .git is copied only when the user says so
  std::function<void(const std::string& step)> starting = [](const std::string&) {};  // for a progress line
  std::function<void(const StepResult&)> finished = [](const StepResult&) {};
};

// The steps done; the first failure as an error naming its step (the steps before it stay done).
// Refuses a plan whose exit code is not 0 (native-ok without --force, refused, ambiguous, problems).
Result<std::vector<StepResult>> apply_plan(const MigratePlan& plan, MigrationPorts& ports, const ApplyOptions& options);

// The project's main module: main.py, train.py, app.py at the top, else the first module that
// imports TensorFlow; empty when there is none.
std::string main_module(const ProjectScan& scan);

// The same file as the check runs it: its module name when the path is an importable one, else the
// script's path (train-model.py, 1_train.py: no `import` can name them).
MainEntry main_entry(const ProjectScan& scan);

// tfwsl.yaml: the project's profile (extends the target profile; TF_USE_LEGACY_KERAS, datasets).
std::string project_profile_yaml(const MigratePlan& plan);

// MIGRATION.md: what was decided and changed, and how to run the project from Windows and VS Code.
std::string migration_report(const MigratePlan& plan, const std::vector<StepResult>& steps);

// The plan with its Linux paths under `home` instead of "~/" (the files written name absolute paths).
MigratePlan with_home(MigratePlan plan, const std::string& home);

// How to run the migrated project from Windows and open it in VS Code (a plan with_home: absolute paths).
// Each is quoted for the shell it is printed for (common/util/shell_quote.hpp): a folder named
// `R&D $(touch x)` is one argument, never code.
struct RunCommands {
  std::string
      wsl;  // PowerShell: wsl -d DISTRO --cd /home/me/projects/NAME --exec bash -lc '~/.venvs/X/bin/python -m MODULE'
  std::string wsl_cmd;  // cmd.exe: the same argv, quoted for cmd
  std::string in_wsl;   // bash, inside the distro: cd /home/me/projects/NAME && ~/.venvs/X/bin/python -m MODULE
  std::string vscode;   // PowerShell: code --remote wsl+DISTRO /home/me/projects/NAME
  std::string tfwsl;    // PowerShell (and bash inside WSL): tfwsl run python -m MODULE, from the project's folder
};
RunCommands how_to_run(const MigratePlan& plan);

// The container route's run: podman in the distro (bash) and through wsl.exe (PowerShell), the
// project and the imported datasets mounted at their own paths, the project the working folder,
// the profile's mounts and environment passed.
struct ContainerRunCommands {
  std::string in_wsl;
  std::string wsl;
};
ContainerRunCommands how_to_run_in_container(const MigratePlan& plan);

// For the consent question: what copying the project again would do to its WSL copy, from the
// record, the WSL copy now and `windows_now` (the project's files on this side, as the copy takes
// them); empty on a first run, or when this run does not copy the project again.
Result<std::string> preview_reapply(const MigratePlan& plan, MigrationPorts& ports, const FileManifest& windows_now);

// The folder names the project copy leaves out, at any depth.
std::vector<std::string> project_copy_skips(bool copy_git);

// An identity of the plan's effects (target, translated files, datasets): the record is for one plan.
std::string plan_digest(const MigratePlan& plan);

}  // namespace tfwsl::migrate
