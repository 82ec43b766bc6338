#pragma once
// An in-memory ProjectFiles for the migrate tests: files by relative path, Windows folders with
// their totals, and the drives the "distro" mounts.

#include <map>
#include <optional>
#include <set>
#include <string>

#include "common/util/ascii.hpp"
#include "win/migrate/project_files.hpp"

namespace tfwsl::migrate::test {

class FakeProjectFiles final : public ProjectFiles {
 public:
  bool exists = true;
  std::map<std::string, std::string> files;  // "requirements.txt" -> text
  std::map<std::string, TreeStats> windows;  // lower-cased "d:\\data\\x" -> stats
  std::optional<std::set<char>> drives;      // nothing: unknown
  std::map<std::string, std::string>
      sources;               // where a Windows folder is copied from ("D:\\x" -> "/mnt/d/x"); else itself
  bool unreachable = false;  // no Windows folder can be copied from here
  int reads = 0;

  bool project_exists() override { return exists; }
  Result<std::vector<ProjectFile>> list(int) override {
    std::vector<ProjectFile> out;
    for (const auto& [path, text] : files) out.push_back({path, text.size()});
    return out;
  }
  Result<std::string> read(const std::string& path, std::size_t max_bytes) override {
    ++reads;
    auto it = files.find(path);
    if (it == files.end()) return make_error(ErrorCode::not_found, path + " is not there");
    // As LocalProjectFiles says it.
    if (it->second.size() > max_bytes)
      return make_error(ErrorCode::invalid_input, "'" + path + "' is " + std::to_string(it->second.size()) +
                                                      " bytes, more than " + std::to_string(max_bytes) +
                                                      " this scan reads");
    return it->second;
  }
  std::optional<TreeStats> windows_tree(std::string_view path) override {
    auto it = windows.find(ascii_lower(path));
    if (it == windows.end()) return std::nullopt;
    return it->second;
  }
  std::optional<std::set<char>> mounted_drives() override { return drives; }
  bool file_exists(const std::string& path) override { return files.contains(path); }
  std::optional<std::string> copy_source(std::string_view windows_path) override {
    if (unreachable) return std::nullopt;
    auto it = sources.find(std::string(windows_path));
    return it == sources.end() ? std::string(windows_path) : it->second;
  }
};

}  // namespace tfwsl::migrate::test
