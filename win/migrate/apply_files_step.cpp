// The write-files step: tfwsl.yaml, tfwsl-paths.json and MIGRATION.md in the WSL copy, each
// written only where nothing is, or where migrate's own last version still is (its recorded hash):
// a file the user changed in WSL is kept, and the step says so. Then the run record in tfwsl's own
// .tfwsl folder there (wsl_copy_record.hpp), which `tfwsl run` reads inside the distro.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/util/content_hash.hpp"
#include "win/migrate/apply_steps.hpp"
#include "win/migrate/wsl_copy_record.hpp"

namespace tfwsl::migrate {
namespace {

struct GeneratedFile {
  std::string relative;
  std::string text;
};

Result<std::vector<GeneratedFile>> generated_files(const MigratePlan& plan, MigrationPorts& ports,
                                                   const std::vector<StepResult>& results) {
  TFWSL_TRY(home, ports.linux_home());
  const MigratePlan resolved = with_home(plan, home);  // the code reads absolute paths
  return std::vector<GeneratedFile>{{"tfwsl.yaml", project_profile_yaml(resolved)},
                                    {k_path_map_file, path_map_json(resolved).dump(2) + "\n"},
                                    {"MIGRATION.md", migration_report(resolved, results)}};
}

// What may be replaced at `relative`: "absent", migrate's last hash, or nothing (the user's now).
std::optional<std::string> expectation(const FileManifest& wsl, const ApplyRecord& record, const GeneratedFile& file) {
  const auto here = wsl.find(file.relative);
  if (here == wsl.end()) return std::string("absent");
  const auto ours = record.written.find(file.relative);
  if (ours != record.written.end() && ours->second == here->second.hash) return ours->second;
  if (here->second.hash == content_hash(file.text)) return here->second.hash;  // already these bytes
  return std::nullopt;
}

Result<std::string> write_files(const MigratePlan& plan, MigrationPorts& ports, ApplyRecord& record,
                                const std::vector<StepResult>& results) {
  TFWSL_TRY(files, generated_files(plan, ports, results));
  TFWSL_TRY(wsl, ports.linux_manifest(plan.project_linux_path));
  const FileManifest now = wsl.value_or(FileManifest{});
  std::vector<std::string> written, kept;
  for (const auto& f : files) {
    if (auto here = now.find(f.relative); here != now.end() && here->second.link)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("{} in the WSL copy is a symbolic link: tfwsl migrate writes no file "
                                    "through a link; remove or rename it, then run migrate again",
                                    f.relative));
    const auto expect = expectation(now, record, f);
    if (!expect) {
      kept.push_back(f.relative);
      continue;
    }
    TFWSL_TRY_STATUS(ports.write_linux_file(plan.project_linux_path, f.relative, f.text, *expect));
    record.written[f.relative] = content_hash(f.text);
    written.push_back(f.relative);
  }
  TFWSL_TRY(home, ports.linux_home());
  const WslCopyRecord run_record = wsl_copy_record(with_home(plan, home), home, results, seconds_now());
  TFWSL_TRY(before, ports.read_linux_file(plan.project_linux_path, k_wsl_copy_record));
  const auto recorded = before ? parse_wsl_copy_record(*before, k_wsl_copy_record) : Result<WslCopyRecord>();
  const WslCopyRecord next = before && recorded ? updated_record(*recorded, run_record) : run_record;
  if (!before || !recorded || !same_but_check_time(*recorded, next))
    TFWSL_TRY_STATUS(
        ports.write_linux_file(plan.project_linux_path, k_wsl_copy_record, wsl_copy_record_text(next), "any"));
  std::string detail = fmt::format("{}", fmt::join(written, ", "));
  if (!kept.empty())
    detail +=
        fmt::format("{}kept (changed in WSL, not replaced): {}", written.empty() ? "" : "; ", fmt::join(kept, ", "));
  return detail;
}

Result<Verdict> recheck_files(const MigratePlan& plan, MigrationPorts& ports, const ApplyRecord& record) {
  TFWSL_TRY(wsl, ports.linux_manifest(plan.project_linux_path));
  const FileManifest now = wsl.value_or(FileManifest{});
  for (const char* name : {"tfwsl.yaml", k_path_map_file, "MIGRATION.md"})
    if (!now.contains(name)) return Verdict{false, std::string(name) + " is missing"};
  TFWSL_TRY(run_record, ports.read_linux_file(plan.project_linux_path, k_wsl_copy_record));
  if (!run_record) return Verdict{false, std::string(k_wsl_copy_record) + " is missing"};
  std::vector<std::string> changed;
  for (const auto& [path, hash] : record.written)
    if (auto here = now.find(path); here != now.end() && here->second.hash != hash) changed.push_back(path);
  if (changed.empty()) return Verdict{true, "re-checked: tfwsl.yaml, tfwsl-paths.json, MIGRATION.md are there"};
  return Verdict{true,
                 fmt::format("re-checked: the files are there ({} changed in WSL, kept)", fmt::join(changed, ", "))};
}

}  // namespace

Step write_files_step(const MigratePlan& plan, MigrationPorts& ports, ApplyRecord& record,
                      const std::vector<StepResult>& results) {
  return {"write-files", [&plan, &ports, &record, &results] { return write_files(plan, ports, record, results); },
          [&plan, &ports, &record] { return recheck_files(plan, ports, record); }};
}

}  // namespace tfwsl::migrate
