#pragma once
// Which profile a command uses when it is not told, decided in one place for every command
// (`tfwsl doctor`, `tfwsl profile ...`, provisioning), highest first (docs/profiles.md,
// "Which profile"):
//   1. --profile NAME|FILE;
//   2. tfwsl.yaml at the project's root: the current folder, else the nearest parent that has one
//      (as git finds .git), so a repository carries its team's profile;
//   3. the user's default profile: %APPDATA%\tfwsl\profile.yaml on Windows,
//      $XDG_CONFIG_HOME/tfwsl/profile.yaml (else ~/.config/tfwsl/profile.yaml) elsewhere
//      (https://specifications.freedesktop.org/basedir-spec/latest/);
//   4. the built-in default (default_profile_name()).

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace tfwsl {

inline constexpr const char* k_project_profile_file = "tfwsl.yaml";

enum class ProfileOrigin { command_line, project, user, builtin };
const char* to_string(ProfileOrigin origin);  // "command-line", "project", "user", "builtin"

struct ProfileChoice {
  std::string name_or_path;  // what load_profile takes: a built-in name or a file
  ProfileOrigin origin = ProfileOrigin::builtin;
  std::string from;          // for people: "/repo/tfwsl.yaml (the project's tfwsl.yaml, found from /repo/src)"
};

struct ProfileSearch {
  std::string option;             // --profile as given; empty: not given
  std::filesystem::path start;    // the current folder
  std::function<std::optional<std::string>(const std::string&)> getenv;  // APPDATA, XDG_CONFIG_HOME, HOME
  bool windows = false;           // which per-user folder applies
};

// The user's default profile file, present or not; nothing when the variables that place it are unset.
std::optional<std::filesystem::path> user_profile_path(const ProfileSearch& search);

// The nearest tfwsl.yaml from `start` up to the filesystem's root.
std::optional<std::filesystem::path> find_project_profile(const std::filesystem::path& start);

ProfileChoice choose_profile(const ProfileSearch& search);

}  // namespace tfwsl
