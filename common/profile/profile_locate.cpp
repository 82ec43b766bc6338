#include "common/profile/profile_locate.hpp"

#include <fmt/format.h>

#include "common/profile/profile_source.hpp"

namespace tfwsl {
namespace {

namespace fs = std::filesystem;

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::optional<std::string> variable(const ProfileSearch& search, const char* name) {
  if (!search.getenv) return std::nullopt;
  auto value = search.getenv(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

}  // namespace

const char* to_string(ProfileOrigin origin) {
  switch (origin) {
    case ProfileOrigin::command_line: return "command-line";
    case ProfileOrigin::project: return "project";
    case ProfileOrigin::user: return "user";
    case ProfileOrigin::builtin: return "builtin";
  }
  return "builtin";
}

std::optional<fs::path> user_profile_path(const ProfileSearch& search) {
  if (search.windows) {
    if (auto appdata = variable(search, "APPDATA")) return fs::path(*appdata) / "tfwsl" / "profile.yaml";
    return std::nullopt;
  }
  if (auto config = variable(search, "XDG_CONFIG_HOME"); config && fs::path(*config).is_absolute())
    return fs::path(*config) / "tfwsl" / "profile.yaml";
  if (auto home = variable(search, "HOME")) return fs::path(*home) / ".config" / "tfwsl" / "profile.yaml";
  return std::nullopt;
}

std::optional<fs::path> find_project_profile(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  for (;;) {
    const fs::path candidate = dir / k_project_profile_file;
    if (is_file(candidate)) return candidate;
    if (!dir.has_relative_path()) return std::nullopt;  // the root: nothing above it
    dir = dir.parent_path();
  }
}

ProfileChoice choose_profile(const ProfileSearch& search) {
  if (!search.option.empty()) return {search.option, ProfileOrigin::command_line, search.option + " (named on the command line)"};
  if (auto project = find_project_profile(search.start)) {
    return {project->string(), ProfileOrigin::project,
            fmt::format("{} (the project's {}, found from {})", project->string(), k_project_profile_file, search.start.string())};
  }
  const auto user = user_profile_path(search);
  if (user && is_file(*user)) return {user->string(), ProfileOrigin::user, user->string() + " (your default profile)"};
  const std::string name = default_profile_name();
  return {name, ProfileOrigin::builtin,
          fmt::format("builtin:{} (the built-in default: no --profile, no {} in {} or a folder above it, no {})", name,
                      k_project_profile_file, search.start.string(), user ? user->string() : "default profile of yours")};
}

}  // namespace tfwsl
