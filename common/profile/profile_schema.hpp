#pragma once
// The profile schema as one table: one row per key, and nothing about a key anywhere else. The
// loader, the validator, the emitter, `extends` merging and command-line overrides all walk this
// table, as ccache drives parsing, printing and checking of its settings from one table
// (k_config_key_table in https://github.com/ccache/ccache/blob/master/src/ccache/config.cpp).
// Adding a key is one row in profile_key_table.cpp plus its field in Profile.
//
// Keys are dotted paths: "wsl.memory" is `memory:` inside the `wsl:` map of the file. Rows of one
// section ("wsl", "cuda", ...) are adjacent; the table order is the order the emitter writes and
// the order unknown-key messages list.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.hpp"

namespace tfwsl {

// What a value is in the YAML and in Profile.
enum class ProfileValueType {
  text,        // a non-empty readable string: "Ubuntu-22.04"
  version,     // a release version of two parts or more: "12.2"
  size,        // a .wslconfig size (parse_wsl_size): "16GB"; bytes in Profile
  processors,  // a whole number from 1 to 1024
  route,       // "wsl" | "native-windows" | "container"
  list,        // a list of non-empty strings: [and-cuda]
  env_map,     // a map of variable names to strings; key "env.NAME" on the command line
  datasets,    // a list of { name, source } maps
};
const char* to_string(ProfileValueType type);

// How a key merges under `extends` and command-line overrides (a later layer is "top").
enum class ProfileMerge {
  replace,     // top's value, when it has one, replaces the base's whole (lists too)
  by_name,     // maps merge entry by entry: top's entries replace or add
  not_merged,  // belongs to the one file that says it (`extends`), never in the merged profile
};

// How the emitter writes a value.
enum class ProfileEmitStyle {
  plain,        // as yaml-cpp writes it (it quotes what would not read back as the same text)
  quoted,       // always double-quoted ("3.10" must not read as the number 3.1); lists: each item
  not_emitted,  // `extends`: the emitted profile is self-contained
};

// A problem a row's own check finds in a value: what is wrong and how to fix it.
struct ProfileKeyProblem {
  std::string message;
  std::string fix;
};

// A row's extra rule on top of its type's, given the value's text (a list: each item's text).
using ProfileValueCheck = std::optional<ProfileKeyProblem> (*)(std::string_view key, std::string_view text);

// What validation says when a required key is missing from the merged profile.
struct ProfileRequirement {
  std::string_view message;  // "" when the key is optional
  std::string_view fix;
};

struct ProfileKeyOps;  // the row's typed access to Profile (profile_value_types.hpp)

struct ProfileKeyRow {
  std::string_view key;  // "wsl.memory"
  ProfileValueType type;
  const ProfileKeyOps* ops;            // the typed access to the row's field (its type and merge agree)
  std::string_view default_yaml = {};  // the built-in default as YAML ("Ubuntu-22.04"); "" for none
  std::string_view example = {};       // a whole good value as YAML, which fixes suggest: "16GB", "[and-cuda]"
  ProfileValueCheck check = nullptr;   // nullptr: the type's rules are enough
  ProfileMerge merge = ProfileMerge::replace;
  ProfileEmitStyle emit = ProfileEmitStyle::plain;
  bool on_command_line = true;       // settable as KEY=VALUE (`--set`)
  bool wsl_only = false;             // warned about when a route: native-windows profile sets it
  ProfileRequirement required = {};  // validation's error when the merged profile lacks it
  std::string_view comment = {};     // one line saying what the key is for (docs/profiles.md)

  // For `profile show`, `profile diff`, `profile export` and provisioning:
  bool is_set(const Profile& profile) const;
  std::optional<std::string> value_text(const Profile& profile) const;  // "16GB", "[and-cuda]"; unset: nothing
  bool same_value(const Profile& a, const Profile& b) const;            // both unset counts as the same
  SourceLocation where(const Profile& profile) const;                   // where the winning value came from

  std::string_view section() const;  // "wsl" for "wsl.memory", "" for "name"
  std::string_view leaf() const;     // "memory" for "wsl.memory", "name" for "name"
};

// Every key, in the documented order.
std::span<const ProfileKeyRow> profile_key_table();
// The row of a dotted key, or nullptr.
const ProfileKeyRow* find_profile_key(std::string_view key);
// What the row of `key` finds wrong in `text` with its own check, the one the loader (so `profile
// validate`) applies to a file's value; nothing when it passes or the row has no check. For a value
// that comes from a command line (profile export --name), so that what one command writes another
// reads.
std::optional<ProfileKeyProblem> profile_key_problem(std::string_view key, std::string_view text);
// What a file may say at the top ("name", ..., "wsl", ...) and inside one section ("memory", ...),
// in table order.
std::vector<std::string> profile_top_level_keys();
std::vector<std::string> profile_section_keys(std::string_view section);

// The built-in defaults (every row's default_yaml) as a profile file: the lowest layer under every
// profile, loadable as "builtin:builtin-defaults.yaml".
inline constexpr std::string_view k_builtin_defaults_name = "builtin:builtin-defaults.yaml";
const std::string& builtin_defaults_yaml();

}  // namespace tfwsl
