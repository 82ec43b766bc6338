#include "win/host/install_method.hpp"

#include <algorithm>
#include <string_view>

#include "common/build_info/build_info.hpp"
#include "common/util/ascii.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::cli {
namespace {

// Windows compares paths without case, takes '/' for '\', and a long path's "\\?\" adds nothing.
std::string folded(std::string_view path) {
  std::string out(path.rfind("\\\\?\\", 0) == 0 ? path.substr(4) : path);
  for (char& c : out) c = c == '/' ? '\\' : ascii_lower(c);
  while (out.size() > 1 && out.back() == '\\') out.pop_back();
  return out;
}

std::string parent_folder(const std::string& path) {
  const auto cut = path.rfind('\\');
  return cut == std::string::npos ? std::string() : path.substr(0, cut);
}

std::string joined(std::string_view root, std::string_view rest) {
  return root.empty() ? "" : folded(root) + "\\" + std::string(rest);
}

// A folder of winget's: one named <PackageIdentifier>_<SourceIdentifier> above the executable (any
// root), or the command links' folder of either scope.
bool in_winget_layout(const std::string& folder, const InstallPlaces& places) {
  const std::string package = ascii_lower(build_info::winget_id()) + "_";
  for (std::size_t start = 0; start <= folder.size();) {
    const auto end = std::min(folder.find('\\', start), folder.size());
    if (std::string_view(folder).substr(start, end - start).starts_with(package)) return true;
    start = end + 1;
  }
  const std::string user_links = joined(places.local_app_data, "microsoft\\winget\\links");
  const std::string machine_links = joined(places.program_files, "winget\\links");
  return (!user_links.empty() && folder == user_links) || (!machine_links.empty() && folder == machine_links);
}

// <root>\apps\tfwsl\<version or current>, nothing deeper.
bool in_scoop_root(const std::string& folder, const std::string& root) {
  if (root.empty()) return false;
  const std::string app = root + "\\apps\\tfwsl\\";
  return folder.starts_with(app) && folder.size() > app.size() && folder.find('\\', app.size()) == std::string::npos;
}

std::string scoop_root(const std::string& set, const std::string& home, std::string_view below) {
  if (!set.empty()) return folded(set);
  return joined(home, below);
}

}  // namespace

InstallMethod classify_install(const InstallPlaces& places) {
  if (!places.windows || places.in_build_tree) return InstallMethod::source;
  const std::string folder = parent_folder(folded(places.executable));
  if (in_winget_layout(folder, places)) return InstallMethod::winget;
  if (in_scoop_root(folder, scoop_root(places.scoop, places.user_profile, "scoop"))) return InstallMethod::scoop;
  if (in_scoop_root(folder, scoop_root(places.scoop_global, places.program_data, "scoop")))
    return InstallMethod::scoop_global;
  return InstallMethod::zip;
}

std::string install_and_upgrade_words(const InstallPlaces& places) {
  const std::string where = " (" + visible_text(places.executable) + ")";
  switch (classify_install(places)) {
    case InstallMethod::winget:
      return "Installed with winget" + where + ".\nTo upgrade: winget upgrade --id " +
             std::string(build_info::winget_id());
    case InstallMethod::scoop:
      return "Installed with Scoop" + where + ".\nTo upgrade: scoop update tfwsl";
    case InstallMethod::scoop_global:
      return "Installed with Scoop, for all users" + where + ".\nTo upgrade: scoop update tfwsl --global";
    case InstallMethod::zip:
      return "Installed by hand from the release zip" + where +
             ".\nTo upgrade, unzip the newest release's zip over that folder: " +
             std::string(build_info::project_url()) + "/releases/latest";
    case InstallMethod::source:
      break;
  }
  return "Built from source" + where +
         ".\nTo upgrade, build the newest release as docs/building.md says: " + std::string(build_info::project_url());
}

}  // namespace tfwsl::cli
