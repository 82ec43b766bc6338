#include "common/profile/profile.hpp"

#include <fmt/format.h>

#include "common/profile/profile_issue.hpp"

namespace tfwsl {

std::string SourceLocation::to_string() const {
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

const char* to_string(ProfileRoute route) {
  switch (route) {
    case ProfileRoute::native_windows:
      return "native-windows";
    case ProfileRoute::container:
      return "container";
    case ProfileRoute::wsl:
      break;
  }
  return "wsl";
}

const EnvEntry* Profile::find_env(const std::string& env_name) const {
  for (const auto& e : env) {
    if (e.name == env_name) return &e;
  }
  return nullptr;
}

std::string cuda_toolkit_apt_package(const std::string& toolkit) {
  std::string out = "cuda-toolkit-";
  for (char c : toolkit) out.push_back(c == '.' ? '-' : c);
  return out;
}

std::string cuda_toolkit_install_fix(const std::string& toolkit) {
  return "tfwsl provision (installs " + cuda_toolkit_apt_package(toolkit) + " from NVIDIA's wsl-ubuntu repository)";
}

std::string tensorflow_pip_requirement(const Profile& profile) {
  std::string extras;
  for (const auto& extra : profile.tensorflow_extras.value_or({})) extras += (extras.empty() ? "" : ",") + extra;
  std::string version = profile.tensorflow_version.value_or("");
  // "2.15.*" -> "==2.15.*"; a specifier (">=2.16,<2.18", "<2.11") stays as written.
  if (!version.empty() && version.front() >= '0' && version.front() <= '9') version = "==" + version;
  return "tensorflow" + (extras.empty() ? "" : "[" + extras + "]") + version;
}

std::string ProfileIssue::to_string() const {
  std::string out =
      fmt::format("{}: {}: {}", where.to_string(), severity == IssueSeverity::error ? "error" : "warning", message);
  if (!fix.empty()) out += "; fix: " + fix;
  return out;
}

bool has_errors(const std::vector<ProfileIssue>& issues) {
  for (const auto& i : issues) {
    if (i.severity == IssueSeverity::error) return true;
  }
  return false;
}

Error issues_to_error(const std::vector<ProfileIssue>& issues, const std::string& what) {
  std::size_t errors = 0;
  std::string lines;
  for (const auto& i : issues) {
    if (i.severity != IssueSeverity::error) continue;
    ++errors;
    lines += "\n  " + i.to_string();
  }
  Error e;
  e.code = ErrorCode::invalid_input;
  e.message = fmt::format("{} has {} error(s):{}", what, errors, lines);
  return e;
}

}  // namespace tfwsl
