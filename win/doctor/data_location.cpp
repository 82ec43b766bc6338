#include "win/doctor/data_location.hpp"

#include <cctype>

#include "common/check/check_rows.hpp"
#include "common/util/ascii.hpp"
#include "common/util/shell_quote.hpp"
#include "common/wsl/drive_path.hpp"

namespace tfwsl::doctor {
namespace {

bool is_drive_path(const std::string& p) {
  return p.size() >= 3 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':' &&
         (p[2] == '\\' || p[2] == '/');
}

bool is_distro_unc(const std::string& p) {
  const std::string lower = ascii_lower(p);
  return lower.rfind("\\\\wsl.localhost\\", 0) == 0 || lower.rfind("\\\\wsl$\\", 0) == 0 ||
         lower.rfind("//wsl.localhost/", 0) == 0 || lower.rfind("//wsl$/", 0) == 0;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

}  // namespace

DataPlace data_place(const std::string& path, const std::string& automount_root) {
  if (is_drive_path(path)) return DataPlace::windows_drive;
  if (is_distro_unc(path)) return DataPlace::distro;
  if (wsl::windows_path_of_drive_mount(path, automount_root)) return DataPlace::windows_drive;
  if (!path.empty() && (path[0] == '/' || path[0] == '~')) return DataPlace::distro;
  return DataPlace::unknown;
}

CheckResult check_data_paths(const std::vector<std::string>& paths) {
  if (paths.empty())
    return make_check(std::string(checked_id("data.location")), CheckStatus::skip,
                      "no project or dataset paths given (--data PATH)");
  std::vector<std::string> slow, unknown;
  CheckResult r = make_check(std::string(checked_id("data.location")), CheckStatus::ok, "");
  for (const auto& p : paths) {
    const DataPlace place = data_place(p);
    r.details.push_back(p + ": " +
                        (place == DataPlace::windows_drive ? "a Windows drive (drvfs/9p from the distro)"
                         : place == DataPlace::distro      ? "the distro's own filesystem"
                                                           : "not an absolute path"));
    if (place == DataPlace::windows_drive) slow.push_back(p);
    if (place == DataPlace::unknown) unknown.push_back(p);
  }
  if (!slow.empty()) {
    r.status = CheckStatus::warn;
    r.summary = "on a Windows drive, slow from WSL (drvfs/9p): " + joined(slow);
    // Quoted for PowerShell, as the distro side's data.location (common/judge): `C:\my data` is one word.
    r.fix = "copy it into the distro's own filesystem, verified and resumable, and use it there: " +
            powershell_command({"tfwsl", "data", "push", slow.front()}) + " (it lands in ~/datasets)";
    r.fix_command = {"data", "push", slow.front()};
  } else if (!unknown.empty()) {
    r.status = CheckStatus::warn;
    r.summary = "not an absolute path, so not judged: " + joined(unknown);
    r.fix = "give --data a full path (C:\\data\\set, or /home/me/data inside the distro)";
  } else {
    r.summary = "in the distro's own filesystem: " + joined(paths);
  }
  return r;
}

}  // namespace tfwsl::doctor
