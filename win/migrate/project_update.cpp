#include "win/migrate/project_update.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tfwsl::migrate {
namespace {

// The paths of a list, at most eight of them named.
std::string named(const std::vector<std::string>& paths) {
  if (paths.size() <= 8) return fmt::format("{}", fmt::join(paths, ", "));
  return fmt::format("{}, and {} more", fmt::join(paths.begin(), paths.begin() + 8, ", "), paths.size() - 8);
}

}  // namespace

ProjectUpdate plan_project_update(const FileManifest& recorded, const FileManifest& wsl, const FileManifest& staged) {
  ProjectUpdate u;
  for (const auto& [path, windows] : staged) {
    const auto placed = recorded.find(path);
    const auto here = wsl.find(path);
    const bool was_placed = placed != recorded.end();
    if (here == wsl.end()) {
      u.place.push_back({path, "absent"});
      (was_placed ? u.restored : u.added).push_back(path);
      u.record[path] = windows;
    } else if (!was_placed) {
      if (here->second == windows)
        u.record[path] = windows;  // the same bytes: migrate's from now on
      else
        u.not_ours.push_back(path);
    } else if (here->second == placed->second) {
      if (windows != here->second) {
        u.place.push_back({path, here->second.hash});
        u.replaced.push_back(path);
      }
      u.record[path] = windows;
    } else {
      (windows == placed->second ? u.kept_wsl : u.both_changed).push_back(path);
      u.record[path] = placed->second;  // still what migrate placed: the WSL edit stays the user's
    }
  }
  // A file deleted on Windows stays in WSL (nothing is deleted); still recorded when unchanged.
  for (const auto& [path, digest] : recorded)
    if (!staged.contains(path) && wsl.contains(path)) u.record[path] = digest;
  return u;
}

std::string describe_update(const ProjectUpdate& u) {
  std::vector<std::string> parts;
  if (!u.added.empty()) parts.push_back(fmt::format("{} added", u.added.size()));
  if (!u.replaced.empty())
    parts.push_back(fmt::format("replaced (changed on Windows, unchanged in WSL): {}", named(u.replaced)));
  if (!u.restored.empty()) parts.push_back(fmt::format("restored (missing in WSL): {}", named(u.restored)));
  if (!u.kept_wsl.empty()) parts.push_back(fmt::format("kept (changed in WSL): {}", named(u.kept_wsl)));
  if (!u.both_changed.empty())
    parts.push_back(
        fmt::format("both changed, the WSL copy kept (merge the Windows change by hand): {}", named(u.both_changed)));
  if (!u.not_ours.empty()) parts.push_back(fmt::format("kept (in WSL, not placed by migrate): {}", named(u.not_ours)));
  if (parts.empty()) return "the WSL copy is up to date";
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace tfwsl::migrate
