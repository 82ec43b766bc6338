#include "common/profile/profile_locate.hpp"

#include <fmt/format.h>

#include "common/profile/profile_source.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> variable(const ProfileSearch& search, const char* name) {
  if (!search.getenv) return std::nullopt;
  auto value = search.getenv(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

// A path that ends in a separator ("/home/me/") names the same folder as one that does not.
bool same_folder(const fs::path& a, const fs::path& b, bool windows) {
  auto text = [windows](const fs::path& p) {
    std::string t = p.lexically_normal().generic_string();
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    return windows ? ascii_lower(t) : t;
  };
  return text(a) == text(b);
}

// "uid 1000" for a POSIX account, the SID as it is on Windows.
std::string shown_owner(const AccountId& account, bool windows) { return windows ? account : "uid " + account; }

// Why a profile file found by looking is not to be applied: another user owns it, or the link to it
// (the user's own, root's, SYSTEM's and the Administrators' are trusted, as git trusts a
// repository's owner). Nothing where owners are unknown.
std::optional<std::string> not_trusted(const ProfilePathFacts& facts, const ProfileFiles& files, bool windows) {
  const auto me = files.current_user();
  if (!me) return std::nullopt;
  for (const AccountId& owner : facts.owners) {
    if (is_trusted_owner(owner, *me)) continue;
    return fmt::format(
        "owned by {}, not by you ({}) or {}: ignored, as git ignores a repository another user owns; "
        "pass --profile with it to use it anyway",
        shown_owner(owner, windows), shown_owner(*me, windows), windows ? "SYSTEM or the Administrators" : "root");
  }
  return std::nullopt;
}

}  // namespace

const char* to_string(ProfileOrigin origin) {
  switch (origin) {
    case ProfileOrigin::command_line:
      return "command-line";
    case ProfileOrigin::project:
      return "project";
    case ProfileOrigin::user:
      return "user";
    case ProfileOrigin::builtin:
      return "builtin";
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

std::optional<fs::path> home_folder(const ProfileSearch& search) {
  auto home = variable(search, search.windows ? "USERPROFILE" : "HOME");
  if (!home) return std::nullopt;
  return fs::path(*home).lexically_normal();
}

ProjectProfileSearch find_project_profile(const ProfileSearch& search) {
  const ProfileFiles& files = search.files ? *search.files : system_profile_files();
  ProjectProfileSearch out;
  std::error_code ec;
  fs::path dir = fs::absolute(search.start, ec).lexically_normal();
  if (ec) return out;
  const auto home = home_folder(search);
  auto device = files.facts(dir).device;
  for (;;) {
    const fs::path candidate = dir / k_project_profile_file;
    const auto facts = files.facts(candidate);
    if (facts.regular_file) {
      auto why = not_trusted(facts, files, search.windows);
      if (!why) {
        out.found = candidate;
        return out;
      }
      out.ignored.push_back(fmt::format("{}: {}", candidate.string(), *why));
    }
    if ((home && same_folder(dir, *home, search.windows)) || !dir.has_relative_path()) return out;
    const fs::path parent = dir.parent_path();
    const auto parent_device = files.facts(parent).device;
    if (device && parent_device && *device != *parent_device) return out;  // a filesystem boundary, as git stops
    dir = parent;
    device = parent_device;
  }
}

ProfileChoice choose_profile(const ProfileSearch& search) {
  if (!search.option.empty())
    return {search.option, ProfileOrigin::command_line, search.option + " (named on the command line)", {}};
  const ProfileFiles& files = search.files ? *search.files : system_profile_files();
  auto project = find_project_profile(search);
  if (project.found) {
    return {project.found->string(), ProfileOrigin::project,
            fmt::format("{} (the project's {}, found from {})", project.found->string(), k_project_profile_file,
                        search.start.string()),
            std::move(project.ignored)};
  }
  std::vector<std::string> ignored = std::move(project.ignored);
  const auto user = user_profile_path(search);
  if (user) {
    const auto facts = files.facts(*user);
    if (facts.regular_file) {
      if (auto why = not_trusted(facts, files, search.windows))
        ignored.push_back(fmt::format("{}: {}", user->string(), *why));
      else
        return {user->string(), ProfileOrigin::user, user->string() + " (your default profile)", std::move(ignored)};
    }
  }
  const std::string name = default_profile_name();
  return {
      name, ProfileOrigin::builtin,
      fmt::format("builtin:{} (the built-in default: no --profile, no {} in {} or a folder above it, no {})", name,
                  k_project_profile_file, search.start.string(), user ? user->string() : "default profile of yours"),
      std::move(ignored)};
}

}  // namespace tfwsl
