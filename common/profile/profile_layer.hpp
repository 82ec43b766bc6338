#pragma once
// One layer of a profile (a file, the built-in defaults, one command-line override) read through
// the key table, and how a later layer goes on top of an earlier one.

#include <yaml-cpp/yaml.h>

#include <vector>

#include "common/profile/profile_issue.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_value_reader.hpp"
#include "common/profile/profile_value_types.hpp"

namespace tfwsl {

// A whole document: the map of top-level keys and sections the table allows.
void read_profile_document(ProfileValueReader& reader, const YAML::Node& root, ProfileLayer& layer);

// A file's text; nothing when it is not YAML at all (reported with its line:col).
std::optional<ProfileLayer> read_profile_layer(const ProfileText& text, std::vector<ProfileIssue>& issues);

// Every row merges as its column says; `sources` gains top's files.
void overlay_profile(Profile& base, const Profile& top);

}  // namespace tfwsl
