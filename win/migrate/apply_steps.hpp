#pragma once
// The steps of applying a plan (apply_plan.hpp), each with how it runs and how a step an earlier
// run finished is re-checked cheaply on the next one (docs/migrate.md, "Re-runs"): the venv's
// python starts, the translated files are still migrate's, the files migrate placed are still in
// the WSL copy, each dataset folder is there, the venv meets the requirements, the GPU check
// passes again. A step whose re-check fails is run again.

#include <functional>
#include <string>
#include <vector>

#include "win/migrate/apply_plan.hpp"
#include "win/migrate/apply_record.hpp"

namespace tfwsl::migrate {

struct Verdict {
  bool ok = false;    // still good: kept
  std::string words;  // what the re-check saw ("the venv's python runs"; "train.py is missing")
};

struct Step {
  std::string name;
  std::function<Result<std::string>()> run;  // the detail on success
  std::function<Result<Verdict>()> recheck;
};

// `record` is updated by the steps that place and write files; `results` is what MIGRATION.md
// lists (the steps so far).
std::vector<Step> plan_steps(const MigratePlan& plan, MigrationPorts& ports, const ApplyOptions& options,
                             ApplyRecord& record, const std::vector<StepResult>& results);

// tfwsl.yaml, tfwsl-paths.json and MIGRATION.md (apply_files_step.cpp).
Step write_files_step(const MigratePlan& plan, MigrationPorts& ports, ApplyRecord& record,
                      const std::vector<StepResult>& results);

// The WSL copy's staging folder beside it: "~/projects/x" -> "~/projects/.x.tfwsl-staging".
std::string staging_path(const std::string& project_linux_path);

}  // namespace tfwsl::migrate
