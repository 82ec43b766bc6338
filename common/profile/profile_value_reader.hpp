#pragma once
// What every row's reader needs from one layer (one file, one override, the built-in defaults):
// the position of a node as file:line:col, a place to report problems, and the checks all values
// share (a single value, readable text, each map key once).

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.hpp"
#include "common/profile/profile_issue.hpp"
#include "common/profile/profile_schema.hpp"

namespace tfwsl {

struct YamlMapEntry {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

class ProfileValueReader {
 public:
  ProfileValueReader(std::string file, std::vector<ProfileIssue>& issues) : m_file(std::move(file)), m_issues(issues) {}

  SourceLocation where(const YAML::Node& node) const;
  void error(const YAML::Node& at, std::string message, std::string fix = {});

  // "unknown key 'wsl.memroy' (did you mean 'memory'?)"; `within` is the section, "" at the top.
  void unknown_key(const YAML::Node& key_node, const std::string& key, const std::vector<std::string>& known,
                   const std::string& within);

  // Every key of a map once: a repeated key is an error (YAML would silently keep one).
  std::vector<YamlMapEntry> entries(const YAML::Node& map);

  // A single readable value (no map, list, null, control characters or broken UTF-8).
  std::optional<std::string> scalar(const YAML::Node& node, std::string_view key, std::string_view example);
  // The same, and not empty.
  std::optional<std::string> text(const YAML::Node& node, std::string_view key, std::string_view example);

  // How many problems have been reported so far (a read that adds one refused its value).
  std::size_t issue_count() const { return m_issues.size(); }

  // Runs the row's own check on a value's text; reports and returns false when it fails.
  bool passes_row_check(const ProfileKeyRow& row, const YAML::Node& at, std::string_view text);

 private:
  std::string m_file;
  std::vector<ProfileIssue>& m_issues;
};

// Profile values are names, versions and paths: text a person can read.
bool is_readable_profile_text(std::string_view s);

}  // namespace tfwsl
