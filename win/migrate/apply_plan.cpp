#include "win/migrate/apply_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "common/agent_api/sha256.hpp"
#include "win/migrate/apply_steps.hpp"
#include "win/migrate/project_update.hpp"

namespace tfwsl::migrate {
namespace {

bool is_identifier(const std::string& part) {
  if (part.empty() || (part.front() >= '0' && part.front() <= '9')) return false;
  return std::all_of(part.begin(), part.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// "pkg/model.py" -> "pkg.model"; empty when a part is no Python identifier ("train-model.py").
std::string module_name(const std::string& file) {
  std::string m = file.substr(0, file.size() - 3);  // without ".py"
  std::string part;
  for (char c : m + "/") {
    if (c != '/') {
      part += c;
      continue;
    }
    if (!is_identifier(part)) return {};
    part.clear();
  }
  std::replace(m.begin(), m.end(), '/', '.');
  return m;
}

std::string main_file(const ProjectScan& scan) {
  for (const char* name : {"main.py", "train.py", "app.py"}) {
    if (std::find(scan.tensorflow_modules.begin(), scan.tensorflow_modules.end(), name) !=
        scan.tensorflow_modules.end())
      return name;
  }
  return scan.tensorflow_modules.empty() ? std::string() : scan.tensorflow_modules.front();
}

std::string under_home(const std::string& path, const std::string& home) {
  if (path == "~") return home;
  return path.starts_with("~/") ? home + path.substr(1) : path;
}

// Runs a step, or, when an earlier run finished it, re-checks it and runs it again only when the
// re-check says it is broken.
Result<StepResult> run_or_recheck(Step& step, const ApplyRecord& record, const ApplyOptions& options) {
  std::string redo_why;
  if (record.has(step.name)) {
    TFWSL_TRY(verdict, step.recheck());
    if (verdict.ok) return StepResult{step.name, false, verdict.words};
    redo_why = verdict.words;
  }
  options.starting(step.name);
  TFWSL_TRY(detail, step.run());
  return StepResult{step.name, true, redo_why.empty() ? detail : "redone (" + redo_why + "): " + detail};
}

}  // namespace

MigratePlan with_home(MigratePlan plan, const std::string& home) {
  plan.project_linux_path = under_home(plan.project_linux_path, home);
  for (auto& ds : plan.datasets) ds.linux_path = under_home(ds.linux_path, home);
  for (auto& wp : plan.windows_paths) wp.linux_path = under_home(wp.linux_path, home);
  if (plan.container)
    for (auto& mount : plan.container->mounts) {
      const auto colon = mount.find(':');
      mount = under_home(mount.substr(0, colon), home) + (colon == std::string::npos ? "" : mount.substr(colon));
    }
  return plan;
}

MainEntry main_entry(const ProjectScan& scan) {
  const std::string file = main_file(scan);
  if (file.empty()) return {};
  std::string module = module_name(file);
  if (module.empty()) return {{}, file};
  return {module, {}};
}

std::string main_module(const ProjectScan& scan) { return main_entry(scan).module; }

std::string plan_digest(const MigratePlan& plan) {
  std::string identity = plan.decision.target ? plan.decision.target->name : "";
  identity += "\n" + plan.project_linux_path;
  for (const auto& f : plan.translation.files) identity += "\n" + f.target + "\n" + f.text;
  for (const auto& ds : plan.datasets) identity += "\n" + ds.windows_path + "=" + ds.linux_path;
  return agent_api::to_hex(agent_api::sha256(identity));
}

std::vector<std::string> project_copy_skips(bool copy_git) {
  std::vector<std::string> skip = {".venv", "venv", "__pycache__", ".ipynb_checkpoints", ".tfwsl"};
  if (!copy_git) skip.push_back(".git");
  return skip;
}

Result<std::string> preview_reapply(const MigratePlan& plan, MigrationPorts& ports, const FileManifest& windows_now) {
  TFWSL_TRY(record, read_apply_record(ports, plan.project_linux_path));
  if (record.placed.empty() || (record.digest == plan_digest(plan) && record.has("copy-project"))) return std::string();
  TFWSL_TRY(wsl, ports.linux_manifest(plan.project_linux_path));
  const ProjectUpdate update = plan_project_update(record.placed, wsl.value_or(FileManifest{}), windows_now);
  return "The WSL copy is your working copy: " + describe_update(update) + ".";
}

Result<std::vector<StepResult>> apply_plan(const MigratePlan& plan, MigrationPorts& ports,
                                           const ApplyOptions& options) {
  if (exit_code_for(plan) != 0 || !plan.decision.target) {
    return make_error(ErrorCode::invalid_input,
                      fmt::format("the plan cannot be applied (decision {}{}): run with --dry-run to see why",
                                  to_string(plan.decision.decision), plan.problems.empty() ? "" : ", with problems"));
  }
  const std::string& root = plan.project_linux_path;
  TFWSL_TRY(record, read_apply_record(ports, root));
  const std::string digest = plan_digest(plan);
  if (record.digest != digest) {
    record.digest = digest;  // a new plan: its steps run again; what was placed and written stays known
    record.done.clear();
  }
  std::vector<StepResult> results;
  for (auto& step : plan_steps(plan, ports, options, record, results)) {
    auto result = run_or_recheck(step, record, options);
    if (!result)
      return with_context(Result<std::vector<StepResult>>(tl::unexpected(result.error())), "step " + step.name);
    results.push_back(*result);
    options.finished(results.back());
    if (!record.has(step.name)) record.done.push_back(step.name);
    if (result->ran) TFWSL_TRY_STATUS(write_apply_record(ports, root, record));
  }
  return results;
}

}  // namespace tfwsl::migrate
