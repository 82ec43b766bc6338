#include "common/migrate/apply_plan.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "common/agent_api/sha256.hpp"

namespace tfwsl::migrate {
namespace {

std::string state_path(const MigratePlan& plan) { return plan.project_linux_path + "/.tfwsl/migrate-state.json"; }

struct Record {
  std::string digest;
  std::vector<std::string> done;
  bool has(const std::string& step) const { return std::find(done.begin(), done.end(), step) != done.end(); }
};

Record read_record(const MigratePlan& plan, MigrationPorts& ports) {
  Record record;
  auto text = ports.read_linux_file(state_path(plan));
  if (!text) return record;
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object() || !j.contains("plan") || !j["plan"].is_string() || !j.contains("done") || !j["done"].is_array()) return record;
  record.digest = j["plan"].get<std::string>();
  for (const auto& step : j["done"]) {
    if (step.is_string()) record.done.push_back(step.get<std::string>());
  }
  return record;
}

Status write_record(const MigratePlan& plan, MigrationPorts& ports, const Record& record) {
  nlohmann::json j = {{"plan", record.digest}, {"done", record.done}};
  return ports.write_linux_file(state_path(plan), j.dump(2) + "\n");
}

struct Step {
  std::string name;
  std::function<Result<std::string>()> run;  // the detail on success
};

Result<std::string> copy_step(MigrationPorts& ports, CopyRequest request) {
  TFWSL_TRY(outcome, ports.copy_tree(request));
  if (outcome.problems > 0) {
    return make_error(ErrorCode::io, fmt::format("copying {} to {}: {} files were reported (vanished, unreadable or changed "
                                                 "while copied); fix them and run migrate again: finished files are kept",
                                                 request.source, request.target, outcome.problems));
  }
  return fmt::format("{} files, {} bytes, verified", outcome.files, outcome.bytes);
}

std::vector<std::string> legacy_env(const MigratePlan& plan) {
  if (!plan.decision.legacy_keras) return {};
  return {"TF_USE_LEGACY_KERAS=1"};
}

std::vector<Step> steps_of(const MigratePlan& plan, MigrationPorts& ports, const ApplyOptions& options) {
  const ShippedProfile& profile = *plan.decision.target;
  std::vector<Step> steps;
  steps.push_back({"provision", [&] { return ports.provision(profile); }});
  steps.push_back({"write-requirements", [&]() -> Result<std::string> {
                     for (const auto& f : plan.translation.files) TFWSL_TRY_STATUS(ports.write_project_file(f.target, f.text));
                     std::string names;
                     for (const auto& f : plan.translation.files) names += (names.empty() ? "" : ", ") + f.target;
                     return names.empty() ? std::string("no requirement file to translate") : names;
                   }});
  std::vector<std::string> skip = {".venv", "venv", "__pycache__", ".ipynb_checkpoints"};
  if (!options.copy_git) skip.push_back(".git");
  steps.push_back({"copy-project", [&, skip] { return copy_step(ports, {options.project_windows_path, plan.project_linux_path, skip}); }});
  for (const auto& ds : plan.datasets) {
    steps.push_back({"import:" + ds.linux_path, [&ports, ds] { return copy_step(ports, {ds.windows_path, ds.linux_path, {}}); }});
  }
  steps.push_back({"install", [&]() -> Result<std::string> {
                     std::vector<std::string> files;
                     for (const auto& f : plan.translation.files) {
                       if (f.source.ends_with(".txt")) files.push_back(f.target);
                     }
                     return ports.install_requirements(profile, plan.project_linux_path, files, plan.translation.added);
                   }});
  steps.push_back({"check", [&]() { return ports.check_gpu_and_import(profile, plan.project_linux_path, main_module(plan.scan), legacy_env(plan)); }});
  return steps;
}

std::string module_name(const std::string& file) {
  std::string m = file.substr(0, file.size() - 3);  // without ".py"
  std::replace(m.begin(), m.end(), '/', '.');
  return m;
}

std::string under_home(const std::string& path, const std::string& home) {
  if (path == "~") return home;
  return path.starts_with("~/") ? home + path.substr(1) : path;
}

}  // namespace

MigratePlan with_home(MigratePlan plan, const std::string& home) {
  plan.project_linux_path = under_home(plan.project_linux_path, home);
  for (auto& ds : plan.datasets) ds.linux_path = under_home(ds.linux_path, home);
  for (auto& wp : plan.windows_paths) wp.linux_path = under_home(wp.linux_path, home);
  return plan;
}

std::string main_module(const ProjectScan& scan) {
  for (const char* name : {"main.py", "train.py", "app.py"}) {
    if (std::find(scan.tensorflow_modules.begin(), scan.tensorflow_modules.end(), name) != scan.tensorflow_modules.end()) return module_name(name);
  }
  return scan.tensorflow_modules.empty() ? std::string() : module_name(scan.tensorflow_modules.front());
}

std::string plan_digest(const MigratePlan& plan) {
  std::string identity = plan.decision.target ? plan.decision.target->name : "";
  identity += "\n" + plan.project_linux_path;
  for (const auto& f : plan.translation.files) identity += "\n" + f.target + "\n" + f.text;
  for (const auto& ds : plan.datasets) identity += "\n" + ds.windows_path + "=" + ds.linux_path;
  return agent_api::to_hex(agent_api::sha256(identity));
}

Result<std::vector<StepResult>> apply_plan(const MigratePlan& plan, MigrationPorts& ports, const ApplyOptions& options) {
  if (exit_code_for(plan) != 0 || !plan.decision.target) {
    return make_error(ErrorCode::invalid_input, fmt::format("the plan cannot be applied (decision {}{}): run with --dry-run to see why",
                                                            to_string(plan.decision.decision), plan.problems.empty() ? "" : ", with problems"));
  }
  Record record = read_record(plan, ports);
  const std::string digest = plan_digest(plan);
  if (record.digest != digest) record = Record{digest, {}};
  std::vector<StepResult> results;
  for (auto& step : steps_of(plan, ports, options)) {
    if (record.has(step.name)) {
      results.push_back({step.name, false, "done by an earlier run"});
      options.finished(results.back());
      continue;
    }
    options.starting(step.name);
    auto detail = step.run();
    if (!detail) return with_context(Result<std::vector<StepResult>>(tl::unexpected(detail.error())), "step " + step.name);
    results.push_back({step.name, true, *detail});
    options.finished(results.back());
    record.done.push_back(step.name);
    TFWSL_TRY_STATUS(write_record(plan, ports, record));
  }
  if (!record.has("write-files")) {
    options.starting("write-files");
    TFWSL_TRY(home, ports.linux_home());
    const MigratePlan resolved = with_home(plan, home);  // the code reads absolute paths
    TFWSL_TRY_STATUS(ports.write_linux_file(plan.project_linux_path + "/tfwsl.yaml", project_profile_yaml(resolved)));
    TFWSL_TRY_STATUS(ports.write_linux_file(plan.project_linux_path + "/" + k_path_map_file, path_map_json(resolved).dump(2) + "\n"));
    TFWSL_TRY_STATUS(ports.write_linux_file(plan.project_linux_path + "/MIGRATION.md", migration_report(resolved, results)));
    results.push_back({"write-files", true, "tfwsl.yaml, tfwsl-paths.json, MIGRATION.md"});
    options.finished(results.back());
    record.done.push_back("write-files");
    TFWSL_TRY_STATUS(write_record(plan, ports, record));
  } else {
    results.push_back({"write-files", false, "done by an earlier run"});
    options.finished(results.back());
  }
  return results;
}

}  // namespace tfwsl::migrate
