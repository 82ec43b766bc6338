#include "common/profile/profile_layer.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/profile/profile_source.hpp"
#include "common/util/yaml_document.hpp"

namespace tfwsl {
namespace {

bool is_listed_key(const std::vector<std::string>& list, const std::string& word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// The row's value; the key is remembered as refused when reading it reported a problem.
void read_row(const ProfileKeyRow& row, ProfileValueReader& reader, const YAML::Node& value, ProfileLayer& layer) {
  const std::size_t before = reader.issue_count();
  row.ops->read(row, reader, value, layer);
  if (reader.issue_count() != before) layer.refused_keys.push_back(row.key);
}

// A section such as `wsl: { memory: 16GB }`: each key must have a row "wsl.<key>".
void read_section(ProfileValueReader& reader, const std::string& section, const YAML::Node& value,
                  ProfileLayer& layer) {
  if (value.IsNull()) return;
  const std::vector<std::string> known = profile_section_keys(section);
  if (!value.IsMap()) {
    reader.error(value, fmt::format("'{}' must be a map", section),
                 fmt::format("write e.g. {}: {{ {}: ... }}", section, known.front()));
    return;
  }
  for (const auto& e : reader.entries(value)) {
    const ProfileKeyRow* row = is_listed_key(known, e.key) ? find_profile_key(section + "." + e.key) : nullptr;
    if (!row) {
      reader.unknown_key(e.key_node, e.key, known, section);
      continue;
    }
    read_row(*row, reader, e.value, layer);
  }
}

}  // namespace

void read_profile_document(ProfileValueReader& reader, const YAML::Node& root, ProfileLayer& layer) {
  if (root.IsNull()) return;  // an empty file sets nothing
  if (!root.IsMap()) {
    reader.error(root, "a profile must be a YAML map of keys such as 'name:' and 'tensorflow:'",
                 "start from a file with 'extends: builtin:" + default_profile_name() +
                     "' and the keys you change (docs/profiles.md)");
    return;
  }
  const std::vector<std::string> known = profile_top_level_keys();
  for (const auto& e : reader.entries(root)) {
    if (!is_listed_key(known, e.key)) {
      reader.unknown_key(e.key_node, e.key, known, "");
    } else if (const ProfileKeyRow* row = find_profile_key(e.key)) {
      read_row(*row, reader, e.value, layer);
    } else {
      read_section(reader, e.key, e.value, layer);
    }
  }
}

std::optional<ProfileLayer> read_profile_layer(const ProfileText& text, std::vector<ProfileIssue>& issues) {
  auto root = load_yaml(text.text);
  if (!root) {
    issues.push_back({IssueSeverity::error, SourceLocation{text.display_name, root.error().line, root.error().column},
                      fmt::format("YAML syntax error: {}", root.error().message), root.error().fix});
    return std::nullopt;
  }
  ProfileLayer layer;
  ProfileValueReader reader(text.display_name, issues);
  read_profile_document(reader, *root, layer);
  layer.profile.sources.push_back(text.display_name);
  return layer;
}

void overlay_profile(Profile& base, const Profile& top) {
  for (const auto& row : profile_key_table()) row.ops->overlay(base, top);
  for (const auto& source : top.sources) {
    if (base.sources.empty() || base.sources.back() != source) base.sources.push_back(source);
  }
}

}  // namespace tfwsl
