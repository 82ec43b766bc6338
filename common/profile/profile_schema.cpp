#include "common/profile/profile_schema.hpp"

#include <algorithm>

#include "common/profile/profile_value_types.hpp"

namespace tfwsl {

bool ProfileKeyRow::is_set(const Profile& profile) const { return ops->is_set(profile); }

std::optional<std::string> ProfileKeyRow::value_text(const Profile& profile) const { return ops->value_text(profile); }

bool ProfileKeyRow::same_value(const Profile& a, const Profile& b) const { return ops->same_value(a, b); }

SourceLocation ProfileKeyRow::where(const Profile& profile) const { return ops->where(profile); }

std::string_view ProfileKeyRow::section() const {
  const auto dot = key.find('.');
  return dot == std::string_view::npos ? std::string_view{} : key.substr(0, dot);
}

std::string_view ProfileKeyRow::leaf() const {
  const auto dot = key.find('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

const ProfileKeyRow* find_profile_key(std::string_view key) {
  const auto table = profile_key_table();
  auto it = std::find_if(table.begin(), table.end(), [&](const ProfileKeyRow& row) { return row.key == key; });
  return it == table.end() ? nullptr : &*it;
}

std::optional<ProfileKeyProblem> profile_key_problem(std::string_view key, std::string_view text) {
  const ProfileKeyRow* row = find_profile_key(key);
  if (!row || !row->check) return std::nullopt;
  return row->check(row->key, text);
}

std::vector<std::string> profile_top_level_keys() {
  std::vector<std::string> out;
  for (const auto& row : profile_key_table()) {
    std::string top(row.section().empty() ? row.key : row.section());
    if (std::find(out.begin(), out.end(), top) == out.end()) out.push_back(std::move(top));
  }
  return out;
}

std::vector<std::string> profile_section_keys(std::string_view section) {
  std::vector<std::string> out;
  for (const auto& row : profile_key_table()) {
    if (!section.empty() && row.section() == section) out.emplace_back(row.leaf());
  }
  return out;
}

// Written from the default column as it stands, so that a default that does not load is reported
// by the loader at its line in this text, like any other profile value.
const std::string& builtin_defaults_yaml() {
  static const std::string text = [] {
    std::string out =
        "# Built-in defaults: the lowest layer under every profile (then the files it extends, then the\n"
        "# profile itself, then command-line overrides). Generated from the profile key table.\n";
    std::string_view open_section;
    for (const auto& row : profile_key_table()) {
      if (row.default_yaml.empty()) continue;
      if (row.section().empty()) {
        open_section = {};
        out += std::string(row.key) + ": " + std::string(row.default_yaml) + "\n";
        continue;
      }
      if (row.section() != open_section) {
        open_section = row.section();
        out += std::string(open_section) + ":\n";
      }
      out += "  " + std::string(row.leaf()) + ": " + std::string(row.default_yaml) + "\n";
    }
    return out;
  }();
  return text;
}

}  // namespace tfwsl
