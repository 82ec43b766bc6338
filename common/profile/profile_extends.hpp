#pragma once
// Following `extends:` from a profile file: each reference resolved relative to the file that
// says it (through the resolver), cycles and over-deep chains reported at the `extends` line.

#include <vector>

#include "common/profile/profile_issue.hpp"
#include "common/profile/profile_layer.hpp"
#include "common/profile/profile_source.hpp"

namespace tfwsl {

// The file itself first, then what it extends, and so on; empty when `root` is not YAML at all.
// A broken link ends the chain there, with an issue.
std::vector<ProfileLayer> read_extends_chain(const ProfileText& root, ProfileResolver& resolver, std::size_t max_depth,
                                             std::vector<ProfileIssue>& issues);

}  // namespace tfwsl
