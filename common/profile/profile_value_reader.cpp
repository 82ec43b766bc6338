#include "common/profile/profile_value_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/text/utf_convert.hpp"
#include "common/util/suggest.hpp"

namespace tfwsl {

// Control characters and broken UTF-8 are mistakes (a binary file, a bad paste) and would not
// survive `profile export`.
bool is_readable_profile_text(std::string_view s) {
  if (!is_valid_utf8(s)) return false;
  return std::none_of(s.begin(), s.end(),
                      [](char c) { return (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f; });
}

SourceLocation ProfileValueReader::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0) return SourceLocation{m_file, 0, 0};
  return SourceLocation{m_file, mark.line + 1, mark.column + 1};
}

void ProfileValueReader::error(const YAML::Node& at, std::string message, std::string fix) {
  m_issues.push_back(ProfileIssue{IssueSeverity::error, where(at), std::move(message), std::move(fix)});
}

void ProfileValueReader::unknown_key(const YAML::Node& key_node, const std::string& key,
                                     const std::vector<std::string>& known, const std::string& within) {
  auto hint = closest_match(key, known);
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  error(key_node,
        fmt::format("unknown key '{}'{}", within.empty() ? key : within + "." + key,
                    hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
        hint ? fmt::format("rename it to '{}'", *hint)
             : fmt::format("remove it; {} takes: {}", within.empty() ? "a profile" : "'" + within + "'", list));
}

std::vector<YamlMapEntry> ProfileValueReader::entries(const YAML::Node& map) {
  std::vector<YamlMapEntry> out;
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      error(key, "a key must be a plain word", "write the key as text, such as 'cuda:'");
      continue;
    }
    if (!seen.insert(key.Scalar()).second) {
      error(key, fmt::format("key '{}' appears twice in the same map", key.Scalar()), "keep one of them");
      continue;
    }
    out.push_back({key.Scalar(), key, it->second});
  }
  return out;
}

std::optional<std::string> ProfileValueReader::scalar(const YAML::Node& node, std::string_view key,
                                                      std::string_view example) {
  if (node.IsNull()) {
    error(node, fmt::format("'{}' has no value", key), fmt::format("write a value, e.g. {}: {}", key, example));
    return std::nullopt;
  }
  if (!node.IsScalar()) {
    error(node, fmt::format("'{}' must be a single value, not a {}", key, node.IsMap() ? "map" : "list"),
          fmt::format("write e.g. {}: {}", key, example));
    return std::nullopt;
  }
  if (!is_readable_profile_text(node.Scalar())) {
    error(node, fmt::format("'{}' contains control characters or is not valid UTF-8", key),
          "retype the value as plain text");
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<std::string> ProfileValueReader::text(const YAML::Node& node, std::string_view key,
                                                    std::string_view example) {
  auto value = scalar(node, key, example);
  if (value && value->empty()) {
    error(node, fmt::format("'{}' is empty", key), fmt::format("write a value, e.g. {}: {}", key, example));
    return std::nullopt;
  }
  return value;
}

bool ProfileValueReader::passes_row_check(const ProfileKeyRow& row, const YAML::Node& at, std::string_view text) {
  if (!row.check) return true;
  auto problem = row.check(row.key, text);
  if (!problem) return true;
  error(at, std::move(problem->message), std::move(problem->fix));
  return false;
}

}  // namespace tfwsl
