#pragma once
// A profile back to YAML: the effective settings after `extends` and overrides, in the documented
// key order, so that loading the output gives the same profile (round trip) and `profile export`
// hands a teammate one self-contained file.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/profile/profile.hpp"

namespace tfwsl {

std::string emit_profile(const Profile& profile);
// The same, led by `extends: REFERENCE` ("builtin:tf-2.15-cuda-12.2"): `profile` then holds only
// what the file sets on top of what it extends (profile export's short form).
std::string emit_profile_extending(const Profile& profile, std::string_view extends);

struct FlatSetting {
  std::string key;    // "wsl.memory", "env.TF_FORCE_GPU_ALLOW_GROWTH", "datasets"
  std::string value;  // "16GB", "[and-cuda]", "true"
  SourceLocation where;
};

// Every set setting as key/value text with where it came from, in key order: what `profile show`
// prints and what `profile diff` compares.
std::vector<FlatSetting> flatten_profile(const Profile& profile);

}  // namespace tfwsl
