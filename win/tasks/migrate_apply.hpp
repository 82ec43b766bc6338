#pragma once
// `tfwsl migrate` without --dry-run: the plan shown, consent (or --yes), then win/migrate's
// apply_plan through the real ports (migrate_ports.hpp), each step reported as it ends, a live
// status line while one runs, and the result as text or as the plan's JSON with its "applied".

#include <filesystem>
#include <string>

#include "common/cli/command_line.hpp"
#include "win/migrate/migrate_plan.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct MigrateApplyRequest {
  std::string project;         // as the user gave it
  std::filesystem::path root;  // the project folder on this side
  bool yes = false;
  bool json = false;
  bool copy_git = false;
  unsigned jobs = 16;
  std::string agent;  // --agent (native build)
};

// 0 applied (or nothing left to do), 2 refused or a step failed (the steps before it stay done: the
// same command resumes), 130 interrupted.
int apply_migration(const MigrateApplyRequest& request, const migrate::MigratePlan& plan, Console& console,
                    Machine& machine);

}  // namespace tfwsl::cli
