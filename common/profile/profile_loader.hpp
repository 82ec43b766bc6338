#pragma once
// Loading a profile: YAML -> Profile, following `extends:` (relative paths, cycles detected),
// merging, applying command-line overrides, then validating against the compatibility data.
//
// Precedence, lowest first (docs/profiles.md): built-in defaults < the extended file(s) < the file
// itself < command-line overrides. Maps (wsl, cuda, python, tensorflow, packages, env) merge key
// by key; a value or a list set in a later layer replaces the earlier one whole.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/compat/compat_db.hpp"
#include "common/core/error.hpp"
#include "common/profile/profile.hpp"
#include "common/profile/profile_issue.hpp"
#include "common/profile/profile_source.hpp"

namespace tfwsl {

struct ProfileLoadOptions {
  const CompatDb* compat = nullptr;    // nullptr: the built-in data
  bool apply_builtin_defaults = true;  // the key table's defaults (builtin_defaults_yaml) under everything
  bool validate = true;                // check against the compatibility data
  std::vector<std::string> overrides;  // "tensorflow.version=2.16.*", "wsl.memory=24GB"
  std::size_t max_extends_depth = 16;
};

struct ProfileLoadResult {
  std::optional<Profile> profile;    // absent when the text could not be read as a profile at all
  std::vector<ProfileIssue> issues;  // every problem found, errors and warnings

  bool ok() const { return profile.has_value() && !has_errors(issues); }
};

// The keys a profile may contain, as dotted paths ("wsl.memory"); env.* and datasets are free-form.
const std::vector<std::string>& profile_setting_keys();

// Loads `root` and everything it extends, through `resolver`.
ProfileLoadResult load_profile(const ProfileText& root, ProfileResolver& resolver,
                               const ProfileLoadOptions& options = {});

// A built-in name ("tf-2.15-cuda-12.2") or a path, as `--profile` takes it.
ProfileLoadResult load_profile(std::string_view name_or_path, const ProfileLoadOptions& options = {});

// The same, for callers that only want a usable profile: every error becomes one Error.
Result<Profile> load_valid_profile(std::string_view name_or_path, const ProfileLoadOptions& options = {});

// A merged profile as another program sent it (emit_profile's YAML: `tfwsl provision` hands the
// agent the profile it loaded, extends and overrides applied, so both plan from one profile). It
// extends nothing; `builtin:` references still reach the built-in profiles. Errors name `origin`.
Result<Profile> load_sent_profile(std::string_view yaml, std::string_view origin,
                                  const ProfileLoadOptions& options = {});

// Applies "key=value" (value in YAML syntax: "24GB", "[and-cuda]", "'3.10'") on top of `profile`.
// Problems are reported with the location "<command line>".
std::vector<ProfileIssue> apply_profile_override(Profile& profile, std::string_view assignment);

}  // namespace tfwsl
