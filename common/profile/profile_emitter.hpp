#pragma once
// A profile back to YAML: the effective settings after `extends` and overrides, in the documented
// key order, so that loading the output gives the same profile (round trip) and `profile export`
// hands a teammate one self-contained file.

#include <string>
#include <utility>
#include <vector>

#include "common/profile/profile.hpp"

namespace tfwsl {

std::string emit_profile(const Profile& profile);

struct FlatSetting {
  std::string key;    // "wsl.memory", "env.TF_FORCE_GPU_ALLOW_GROWTH", "datasets"
  std::string value;  // "16GB", "[and-cuda]", "true"
  SourceLocation where;
};

// Every set setting as key/value text with where it came from, in key order: what `profile show`
// prints and what `profile diff` compares.
std::vector<FlatSetting> flatten_profile(const Profile& profile);

}  // namespace tfwsl
