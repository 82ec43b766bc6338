#include "common/profile/profile_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "common/profile/profile_extends.hpp"
#include "common/profile/profile_layer.hpp"
#include "common/profile/profile_validator.hpp"
#include "common/util/suggest.hpp"
#include "common/util/yaml_document.hpp"

namespace tfwsl {
namespace {

// A row whose values are a map of free names (env) is set on the command line as "KEY.NAME".
bool takes_names(const ProfileKeyRow& row) { return row.type == ProfileValueType::env_map; }

// The keys `--set` knows, for the did-you-mean: every row the command line may set, except maps.
std::vector<std::string> override_keys() {
  std::vector<std::string> keys;
  for (const auto& row : profile_key_table()) {
    if (row.on_command_line && !takes_names(row)) keys.emplace_back(row.key);
  }
  return keys;
}

// The row an override's key sets, and the name inside a map row ("env.X" -> env, "X").
const ProfileKeyRow* override_row(const std::string& key, std::string& name) {
  for (const auto& row : profile_key_table()) {
    if (!row.on_command_line) continue;
    if (!takes_names(row) && key == row.key) return &row;
    if (takes_names(row) && key.size() > row.key.size() && key.compare(0, row.key.size(), row.key) == 0 &&
        key[row.key.size()] == '.') {
      name = key.substr(row.key.size() + 1);
      return &row;
    }
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string>& profile_setting_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& row : profile_key_table())
      out.push_back(std::string(row.key) + (takes_names(row) ? ".<NAME>" : ""));
    return out;
  }();
  return keys;
}

std::vector<ProfileIssue> apply_profile_override(Profile& profile, std::string_view assignment) {
  std::vector<ProfileIssue> issues;
  const SourceLocation here{"<command line>", 0, 0};
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    issues.push_back({IssueSeverity::error, here, fmt::format("override '{}' is not KEY=VALUE", assignment),
                      "write e.g. --set tensorflow.version=2.16.*"});
    return issues;
  }
  const std::string key(assignment.substr(0, eq));
  auto value = parse_yaml_document(assignment.substr(eq + 1), "<command line>");
  if (!value) {
    issues.push_back(
        {IssueSeverity::error, here, fmt::format("override '{}': {}", assignment, value.error().message), ""});
    return issues;
  }
  std::string name;
  const ProfileKeyRow* row = override_row(key, name);
  if (!row) {
    auto hint = closest_match(key, override_keys());
    issues.push_back(
        {IssueSeverity::error, here,
         fmt::format("unknown setting '{}'{}", key, hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""),
         hint ? fmt::format("write {}=...", *hint) : "see docs/profiles.md for the settings"});
    return issues;
  }
  ProfileValueReader reader("<command line>", issues);
  ProfileLayer top;
  if (takes_names(*row)) {
    YAML::Node entry(YAML::NodeType::Map);
    entry[name] = *value;
    row->ops->read(*row, reader, entry, top);
  } else {
    row->ops->read(*row, reader, *value, top);
  }
  for (auto& issue : issues) issue.where = here;  // a one-line value has no useful line:col
  if (!has_errors(issues)) {
    top.profile.sources.push_back("<command line>");
    overlay_profile(profile, top.profile);
  }
  return issues;
}

ProfileLoadResult load_profile(const ProfileText& root, ProfileResolver& resolver, const ProfileLoadOptions& options) {
  ProfileLoadResult result;
  const std::vector<ProfileLayer> layers = read_extends_chain(root, resolver, options.max_extends_depth, result.issues);
  if (layers.empty()) return result;

  Profile merged;
  if (options.apply_builtin_defaults) {
    const std::string name(k_builtin_defaults_name);
    if (auto defaults = read_profile_layer(ProfileText{name, name, builtin_defaults_yaml()}, result.issues)) {
      defaults->profile.sources.clear();  // defaults are not a source the user chose
      overlay_profile(merged, defaults->profile);
    }
  }
  std::vector<std::string_view> refused_keys;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    overlay_profile(merged, it->profile);
    refused_keys.insert(refused_keys.end(), it->refused_keys.begin(), it->refused_keys.end());
  }
  for (const auto& o : options.overrides) {
    auto issues = apply_profile_override(merged, o);
    result.issues.insert(result.issues.end(), issues.begin(), issues.end());
  }
  if (options.validate) {
    const CompatDb& db = options.compat ? *options.compat : builtin_compat_db();
    auto issues = validate_profile(merged, db, refused_keys);
    result.issues.insert(result.issues.end(), issues.begin(), issues.end());
  }
  result.profile = std::move(merged);
  return result;
}

ProfileLoadResult load_profile(std::string_view name_or_path, const ProfileLoadOptions& options) {
  auto text = open_profile(name_or_path);
  if (!text) {
    ProfileLoadResult result;
    result.issues.push_back(
        {IssueSeverity::error, SourceLocation{std::string(name_or_path), 0, 0}, text.error().message, ""});
    return result;
  }
  FileProfileResolver resolver;
  return load_profile(*text, resolver, options);
}

Result<Profile> load_sent_profile(std::string_view yaml, std::string_view origin, const ProfileLoadOptions& options) {
  if (yaml.size() > k_max_profile_bytes)
    return make_error(ErrorCode::invalid_input, fmt::format("{} is {} bytes, more than a profile may be ({})", origin,
                                                            yaml.size(), k_max_profile_bytes));
  InMemoryProfileResolver resolver({{"sent.yaml", std::string(yaml)}});
  TFWSL_TRY(root, resolver.open("sent.yaml"));
  root.display_name = std::string(origin);
  auto loaded = load_profile(root, resolver, options);
  if (!loaded.ok()) return tl::unexpected(issues_to_error(loaded.issues, std::string(origin)));
  return std::move(*loaded.profile);
}

Result<Profile> load_valid_profile(std::string_view name_or_path, const ProfileLoadOptions& options) {
  auto loaded = load_profile(name_or_path, options);
  if (!loaded.ok()) return tl::unexpected(issues_to_error(loaded.issues, fmt::format("profile '{}'", name_or_path)));
  return std::move(*loaded.profile);
}

}  // namespace tfwsl
