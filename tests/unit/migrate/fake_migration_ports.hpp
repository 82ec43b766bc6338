#pragma once
// MigrationPorts in memory for the apply tests, behaving as the real ones do: the Windows project's
// files by relative path, the distro's files by absolute-or-~ path, copies that fill the target
// from the Windows files, the agent's expectations on writes and placements ("absent", a hash),
// the ownership mark on the Windows side, and a venv that can be made broken. Every effect is
// logged in `calls`; a call can be made to fail once (an interrupted run).

#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/util/content_hash.hpp"
#include "win/migrate/migration_ports.hpp"
#include "win/migrate/ownership_mark.hpp"

namespace tfwsl::migrate::test {

class FakeMigrationPorts : public MigrationPorts {
 public:
  std::vector<std::string> calls;
  std::map<std::string, std::string> windows_project;  // what copy-project copies: "train.py" -> text
  std::map<std::string, std::string> linux_files;      // "~/projects/flowers/train.py" -> text
  std::set<std::string> linux_folders;                 // folders that exist (datasets, roots)
  std::map<std::string, std::string> project_files;    // written beside the user's files on Windows
  std::string fail_once;                               // a call ("install", "copy:D:") that fails the first time
  std::optional<std::string> venv_problem;             // the venv's python does not run
  std::optional<std::string> unmet;                    // what `venv install --check` finds unmet

  Result<std::string> provision(const ShippedProfile& p) override {
    TFWSL_TRY_STATUS(record("provision:" + p.name));
    venv_problem.reset();
    return std::string("already provisioned");
  }
  Result<CopyOutcome> copy_tree(const CopyRequest& r) override {
    std::string skip;
    for (const auto& s : r.skip) skip += s + ",";
    TFWSL_TRY_STATUS(record("copy:" + r.source + "->" + r.target + " skip " + skip));
    linux_folders.insert(r.target);
    if (r.target.find(".tfwsl-staging") != std::string::npos)
      for (const auto& [path, text] : windows_project) linux_files[r.target + "/" + path] = text;
    return CopyOutcome{10, 100, 0};
  }
  Result<std::string> install_requirements(const ShippedProfile&, const std::string& project,
                                           const std::vector<std::string>& files,
                                           const std::vector<std::string>& extra) override {
    std::string what = "install:" + project;
    for (const auto& f : files) what += " -r " + f;
    for (const auto& e : extra) what += " " + e;
    TFWSL_TRY_STATUS(record(what));
    unmet.reset();
    return std::string("installed");
  }
  Result<std::optional<std::string>> requirements_unmet(const ShippedProfile&, const std::string&,
                                                        const std::vector<std::string>&,
                                                        const std::vector<std::string>&) override {
    return unmet;
  }
  std::optional<std::string> venv_broken(const ShippedProfile&) override { return venv_problem; }
  Result<std::string> check_gpu_and_import(const ShippedProfile&, const std::string& project, const MainEntry& entry,
                                           const std::vector<std::string>& env) override {
    std::string what = "check:" + (entry.module.empty() ? "script " + entry.script : entry.module);
    for (const auto& e : env) what += " " + e;
    TFWSL_TRY_STATUS(record(what));
    const std::string file = entry.module.empty() ? entry.script : entry.module + ".py";
    if (!file.empty() && !linux_files.contains(project + "/" + file))
      return make_error(ErrorCode::process,
                        "the GPU check in the venv failed: import: No module named " + entry.module);
    return std::string("1 GPU");
  }
  Result<std::string> linux_home() override { return std::string("/home/tf"); }
  bool linux_folder_exists(const std::string& path) override { return linux_folders.contains(path); }
  Status write_linux_file(const std::string& root, const std::string& relative, const std::string& text,
                          const std::string& expect) override {
    TFWSL_TRY_STATUS(check_expect(root + "/" + relative, expect));
    linux_folders.insert(root);
    linux_files[root + "/" + relative] = text;
    return {};
  }
  Result<std::optional<std::string>> read_linux_file(const std::string& root, const std::string& relative) override {
    auto it = linux_files.find(root + "/" + relative);
    if (it == linux_files.end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }
  Result<std::optional<FileManifest>> linux_manifest(const std::string& root) override {
    if (!linux_folders.contains(root)) return std::optional<FileManifest>();
    FileManifest out;
    for (const auto& [path, text] : linux_files) {
      if (!path.starts_with(root + "/")) continue;
      const std::string relative = path.substr(root.size() + 1);
      if (!relative.starts_with(".tfwsl/")) out[relative] = {text.size(), content_hash(text)};
    }
    return std::optional<FileManifest>(out);
  }
  Result<PlaceOutcome> place_files(const std::string& staging, const std::string& root,
                                   const std::vector<PlaceRequest>& requests) override {
    TFWSL_TRY_STATUS(record("place:" + std::to_string(requests.size())));
    PlaceOutcome out;
    linux_folders.insert(root);
    for (const auto& r : requests) {
      const std::string& text = linux_files[staging + "/" + r.path];
      if (auto ok = check_expect(root + "/" + r.path, r.expect); !ok) {
        out.refused.emplace_back(r.path, ok.error().message);
        continue;
      }
      linux_files[root + "/" + r.path] = text;
      out.placed[r.path] = {text.size(), content_hash(text)};
    }
    std::erase_if(linux_files, [&](const auto& entry) { return entry.first.starts_with(staging + "/"); });
    linux_folders.erase(staging);
    return out;
  }
  Status write_project_file(const std::string& path, const std::string& text) override {
    auto it = project_files.find(path);
    if (it != project_files.end() && it->second == text) return {};
    if (it != project_files.end() && !written_by_migrate(it->second))
      return make_error(ErrorCode::conflict, path + " was not written by tfwsl migrate");
    project_files[path] = text;
    return record("write:" + path);
  }
  std::optional<std::string> read_project_file(const std::string& path) override {
    auto it = project_files.find(path);
    if (it == project_files.end()) return std::nullopt;
    return it->second;
  }

 private:
  Status check_expect(const std::string& path, const std::string& expect) {
    auto it = linux_files.find(path);
    if (expect == "absent" && it != linux_files.end()) return make_error(ErrorCode::conflict, path + " appeared");
    if (expect != "absent" && expect != "any" && (it == linux_files.end() || content_hash(it->second) != expect))
      return make_error(ErrorCode::conflict, path + " changed");
    return {};
  }
  Status record(const std::string& call) {
    if (!fail_once.empty() && call.starts_with(fail_once)) {
      fail_once.clear();
      return make_error(ErrorCode::io, "interrupted at " + call);
    }
    calls.push_back(call);
    return {};
  }
};

}  // namespace tfwsl::migrate::test
