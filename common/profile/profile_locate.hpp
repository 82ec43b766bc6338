#pragma once
// Which profile a command uses when it is not told, decided in one place for every command
// (`tfwsl doctor`, `tfwsl profile ...`, provisioning), highest first (docs/profiles.md,
// "Which profile"):
//   1. --profile NAME|FILE;
//   2. tfwsl.yaml at the project's root: the current folder, else the nearest parent that has one
//      (as git finds .git), so a repository carries its team's profile. The climb stops at the
//      home folder and at a filesystem boundary, and a tfwsl.yaml owned by anyone but the user or
//      root is ignored and named (as git ignores a repository another user owns): a /tmp/tfwsl.yaml
//      another user left is never applied;
//   3. the user's default profile: %APPDATA%\tfwsl\profile.yaml on Windows,
//      $XDG_CONFIG_HOME/tfwsl/profile.yaml (else ~/.config/tfwsl/profile.yaml) elsewhere
//      (https://specifications.freedesktop.org/basedir-spec/latest/);
//   4. the built-in default (default_profile_name()).

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/profile/profile_files.hpp"

namespace tfwsl {

inline constexpr const char* k_project_profile_file = "tfwsl.yaml";

enum class ProfileOrigin { command_line, project, user, builtin };
const char* to_string(ProfileOrigin origin);  // "command-line", "project", "user", "builtin"

struct ProfileChoice {
  std::string name_or_path;  // what load_profile takes: a built-in name or a file
  ProfileOrigin origin = ProfileOrigin::builtin;
  std::string from;                  // for people: "/repo/tfwsl.yaml (the project's tfwsl.yaml, found from /repo/src)"
  std::vector<std::string> ignored;  // files passed over, each with why ("/tmp/tfwsl.yaml: owned by uid 1001, ...")
};

struct ProfileSearch {
  std::string option;                                                    // --profile as given; empty: not given
  std::filesystem::path start;                                           // the current folder
  std::function<std::optional<std::string>(const std::string&)> getenv;  // APPDATA, XDG_CONFIG_HOME, HOME
  bool windows = false;                                                  // which per-user folder applies
  const ProfileFiles* files = nullptr;                                   // nullptr: system_profile_files()
};

// The user's default profile file, present or not; nothing when the variables that place it are unset.
std::optional<std::filesystem::path> user_profile_path(const ProfileSearch& search);

// The user's home folder (HOME; USERPROFILE on Windows), where the climb stops.
std::optional<std::filesystem::path> home_folder(const ProfileSearch& search);

struct ProjectProfileSearch {
  std::optional<std::filesystem::path> found;
  std::vector<std::string> ignored;  // tfwsl.yaml files owned by another user, each with why
};

// The nearest tfwsl.yaml from the search's start upward, up to the home folder (when the start
// lies in it), a filesystem boundary or the root, whichever comes first; one owned by anyone but
// the user or root is passed over and named.
ProjectProfileSearch find_project_profile(const ProfileSearch& search);

ProfileChoice choose_profile(const ProfileSearch& search);

}  // namespace tfwsl
