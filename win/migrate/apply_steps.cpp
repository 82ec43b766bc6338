#include "win/migrate/apply_steps.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/util/plural.hpp"
#include "win/migrate/ownership_mark.hpp"
#include "win/migrate/project_update.hpp"

namespace tfwsl::migrate {
namespace {

Result<std::string> copy_step(MigrationPorts& ports, const CopyRequest& request) {
  TFWSL_TRY(outcome, ports.copy_tree(request));
  if (outcome.problems > 0) {
    return make_error(ErrorCode::io,
                      fmt::format("copying {} to {}: {} reported (vanished, unreadable or changed "
                                  "while copied); fix them and run migrate again: finished files are kept",
                                  request.source, request.target, plural(outcome.problems, "file was", "files were")));
  }
  return fmt::format("{}, {}, verified", plural(outcome.files, "file", "files"),
                     plural(outcome.bytes, "byte", "bytes"));
}

std::vector<std::string> legacy_env(const MigratePlan& plan) {
  if (!plan.decision.legacy_keras) return {};
  return {"TF_USE_LEGACY_KERAS=1"};
}

std::vector<std::string> pip_files(const MigratePlan& plan) {
  std::vector<std::string> files;
  for (const auto& f : plan.translation.files)
    if (f.source.ends_with(".txt")) files.push_back(f.target);
  return files;
}

// The container route: provisioning checks first and changes only what it must, so its re-check is
// the same run (the image's GPU check included).
Step container_provision_step(const MigratePlan& plan, MigrationPorts& ports) {
  const ShippedProfile& profile = *plan.decision.target;
  return {"provision", [&ports, &profile] { return ports.provision(profile); },
          [&ports, &profile]() -> Result<Verdict> {
            TFWSL_TRY(done, ports.provision(profile));
            return Verdict{true, "re-checked: " + done};
          }};
}

Step provision_step(const MigratePlan& plan, MigrationPorts& ports) {
  const ShippedProfile& profile = *plan.decision.target;
  return {"provision", [&ports, &profile] { return ports.provision(profile); },
          [&ports, &profile]() -> Result<Verdict> {
            if (auto broken = ports.venv_broken(profile)) return Verdict{false, *broken};
            return Verdict{true, fmt::format("re-checked: the venv's python runs ({})", profile.venv)};
          }};
}

Step requirements_step(const MigratePlan& plan, MigrationPorts& ports) {
  return {"write-requirements",
          [&plan, &ports]() -> Result<std::string> {
            std::vector<std::string> names;
            for (const auto& f : plan.translation.files) {
              TFWSL_TRY_STATUS(ports.write_project_file(f.target, with_ownership_mark(f.source, f.text)));
              names.push_back(f.target);
            }
            if (names.empty()) return std::string("no requirement file to translate");
            return fmt::format("{}", fmt::join(names, ", "));
          },
          [&plan, &ports]() -> Result<Verdict> {
            for (const auto& f : plan.translation.files)
              if (ports.read_project_file(f.target) != with_ownership_mark(f.source, f.text))
                return Verdict{false, f.target + " is missing or no longer the translation"};
            return Verdict{true, "re-checked: the translated files are there"};
          }};
}

// The project is copied beside its WSL copy, then only what plan_project_update allows moves in.
Result<std::string> copy_project(const MigratePlan& plan, MigrationPorts& ports, const ApplyOptions& options,
                                 ApplyRecord& record) {
  const std::string& root = plan.project_linux_path;
  const std::string staging = staging_path(root);
  TFWSL_TRY(wsl, ports.linux_manifest(root));
  const std::vector<std::string> skip = project_copy_skips(options.copy_git);
  const std::string source = plan.project_source.empty() ? options.project_windows_path : plan.project_source;
  TFWSL_TRY(copied, copy_step(ports, {source, staging, skip}));
  TFWSL_TRY(staged, ports.linux_manifest(staging));
  if (!staged) return make_error(ErrorCode::io, "the copy of the project is not in " + staging);
  ProjectUpdate update = plan_project_update(record.placed, wsl.value_or(FileManifest{}), *staged);
  TFWSL_TRY(outcome, ports.place_files(staging, root, update.place));
  for (const auto& [path, why] : outcome.refused) {
    update.not_ours.push_back(path + " (" + why + ")");
    if (auto was = record.placed.find(path); was != record.placed.end())
      update.record[path] = was->second;
    else
      update.record.erase(path);
  }
  record.placed = update.record;
  return copied + "; " + describe_update(update);
}

Result<Verdict> recheck_copy(const MigratePlan& plan, MigrationPorts& ports, const ApplyRecord& record) {
  TFWSL_TRY(wsl, ports.linux_manifest(plan.project_linux_path));
  if (!wsl) return Verdict{false, plan.project_linux_path + " is gone"};
  std::vector<std::string> missing;
  std::size_t changed = 0;
  for (const auto& [path, digest] : record.placed) {
    auto here = wsl->find(path);
    if (here == wsl->end())
      missing.push_back(path);
    else if (here->second != digest)
      ++changed;
  }
  if (record.placed.empty()) return Verdict{false, "no record of the files migrate placed"};
  if (!missing.empty()) return Verdict{false, fmt::format("missing in the WSL copy: {}", fmt::join(missing, ", "))};
  return Verdict{true, fmt::format("re-checked: the {} {} migrate placed {} there ({} changed in WSL since, kept)",
                                   record.placed.size(), plural_noun(record.placed.size(), "file", "files"),
                                   plural_noun(record.placed.size(), "is", "are"), changed)};
}

Step install_step(const MigratePlan& plan, MigrationPorts& ports) {
  const ShippedProfile& profile = *plan.decision.target;
  return {
      "install",
      [&plan, &ports, &profile] {
        return ports.install_requirements(profile, plan.project_linux_path, pip_files(plan), plan.translation.added);
      },
      [&plan, &ports, &profile]() -> Result<Verdict> {
        TFWSL_TRY(unmet,
                  ports.requirements_unmet(profile, plan.project_linux_path, pip_files(plan), plan.translation.added));
        if (unmet) return Verdict{false, *unmet};
        return Verdict{true, "re-checked: the venv meets the requirements"};
      }};
}

Step check_step(const MigratePlan& plan, MigrationPorts& ports) {
  auto run = [&plan, &ports] {
    return ports.check_gpu_and_import(*plan.decision.target, plan.project_linux_path, main_entry(plan.scan),
                                      legacy_env(plan));
  };
  return {"check", run, [run]() -> Result<Verdict> {
            TFWSL_TRY(detail, run());
            return Verdict{true, "re-checked: " + detail};
          }};
}

}  // namespace

std::string staging_path(const std::string& project_linux_path) {
  const auto slash = project_linux_path.find_last_of('/');
  if (slash == std::string::npos) return "." + project_linux_path + ".tfwsl-staging";
  return project_linux_path.substr(0, slash + 1) + "." + project_linux_path.substr(slash + 1) + ".tfwsl-staging";
}

std::vector<Step> plan_steps(const MigratePlan& plan, MigrationPorts& ports, const ApplyOptions& options,
                             ApplyRecord& record, const std::vector<StepResult>& results) {
  std::vector<Step> steps;
  // The container route: the image brings TensorFlow, so no venv, no pip and no record of one.
  const bool container = plan.container.has_value();
  steps.push_back(container ? container_provision_step(plan, ports) : provision_step(plan, ports));
  if (!container) steps.push_back(requirements_step(plan, ports));
  steps.push_back({"copy-project",
                   [&plan, &ports, &options, &record] { return copy_project(plan, ports, options, record); },
                   [&plan, &ports, &record] { return recheck_copy(plan, ports, record); }});
  for (const auto& ds : plan.datasets) {
    steps.push_back({"import:" + ds.linux_path,
                     [&ports, ds] {
                       return copy_step(ports, {ds.source.empty() ? ds.windows_path : ds.source, ds.linux_path, {}});
                     },
                     [&ports, ds]() -> Result<Verdict> {
                       if (!ports.linux_folder_exists(ds.linux_path)) return Verdict{false, ds.linux_path + " is gone"};
                       return Verdict{true, "re-checked: " + ds.linux_path + " is there"};
                     }});
  }
  if (container) return steps;
  steps.push_back(install_step(plan, ports));
  steps.push_back(check_step(plan, ports));
  steps.push_back(write_files_step(plan, ports, record, results));
  return steps;
}

}  // namespace tfwsl::migrate
