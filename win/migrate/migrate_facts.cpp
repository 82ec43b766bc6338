#include "win/migrate/migrate_facts.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/core/builtin_data.hpp"
#include "common/util/yaml_document.hpp"

namespace tfwsl::migrate {
namespace {

Result<std::string> scalar_at(const YAML::Node& node, const char* key, std::string_view source) {
  auto text = yaml_scalar(node[key]);
  if (!text || text->empty()) {
    return make_error(ErrorCode::parse,
                      fmt::format("{}: '{}' is missing or not a value", yaml_position(source, node.Mark()), key));
  }
  return *text;
}

Result<Version> version_at(const YAML::Node& node, const char* key, std::string_view source) {
  TFWSL_TRY(text, scalar_at(node, key, source));
  auto v = Version::parse(text);
  if (!v)
    return make_error(ErrorCode::parse,
                      fmt::format("{}: '{}' is not a version: {}", yaml_position(source, node.Mark()), key, text));
  return *v;
}

bool flag_at(const YAML::Node& node, const char* key) {
  auto text = yaml_scalar(node[key]);
  return text && *text == "true";
}

Result<std::vector<DropRule>> read_drops(const YAML::Node& list, std::string_view source) {
  std::vector<DropRule> drops;
  for (const auto& item : list) {
    TFWSL_TRY(package, scalar_at(item, "package", source));
    TFWSL_TRY(reason, scalar_at(item, "reason", source));
    drops.push_back({package, reason, flag_at(item, "conda_only"), flag_at(item, "pinned_only"),
                     flag_at(item, "brings_tensorflow")});
  }
  return drops;
}

Result<double> number_at(const YAML::Node& node, const char* key, std::string_view source) {
  TFWSL_TRY(text, scalar_at(node, key, source));
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(value > 0)) {
    return make_error(ErrorCode::parse, fmt::format("{}: '{}' must be a positive number, not {}",
                                                    yaml_position(source, node.Mark()), key, text));
  }
  return value;
}

}  // namespace

const DropRule* MigrateFacts::find_drop(std::string_view package) const {
  for (const auto& d : drops) {
    if (d.package == package) return &d;
  }
  return nullptr;
}

const Rename* MigrateFacts::find_rename(std::string_view package) const {
  for (const auto& r : renames) {
    if (r.from == package) return &r;
  }
  return nullptr;
}

std::uint64_t MigrateFacts::estimate_seconds(std::uint64_t files, std::uint64_t bytes) const {
  if (files == 0 && bytes == 0) return 0;
  double seconds = static_cast<double>(files) / import_speed.files_per_second +
                   static_cast<double>(bytes) / import_speed.bytes_per_second;
  return static_cast<std::uint64_t>(std::max(1.0, std::ceil(seconds)));
}

Result<MigrateFacts> load_migrate_facts(std::string_view yaml_text, std::string_view source_name) {
  TFWSL_TRY(root, parse_yaml_document(yaml_text, source_name));
  if (!root.IsMap())
    return make_error(ErrorCode::parse, fmt::format("{}: expected a map of migrate facts", source_name));
  MigrateFacts facts;
  TFWSL_TRY(preferred, version_at(root, "preferred_series", source_name));
  TFWSL_TRY(keras3, version_at(root, "keras3_from", source_name));
  facts.preferred_series = preferred;
  facts.keras3_from = keras3;
  TFWSL_TRY(drops, read_drops(root["drops"], source_name));
  facts.drops = std::move(drops);
  for (const auto& item : root["tensorflow_renames"]) {
    TFWSL_TRY(from, scalar_at(item, "from", source_name));
    TFWSL_TRY(to, scalar_at(item, "to", source_name));
    facts.renames.push_back({from, to});
  }
  for (const auto& item : root["keras2_only_apis"]) {
    TFWSL_TRY(text, scalar_at(item, "text", source_name));
    TFWSL_TRY(what, scalar_at(item, "what", source_name));
    facts.keras2_only_apis.push_back({text, what});
  }
  for (const auto& item : root["tensorflow_lockstep"]) facts.tensorflow_lockstep.push_back(item.as<std::string>());
  const YAML::Node speed = root["import_speed"];
  TFWSL_TRY(files, number_at(speed, "files_per_second", source_name));
  TFWSL_TRY(bytes, number_at(speed, "bytes_per_second", source_name));
  TFWSL_TRY(cited, scalar_at(speed, "source", source_name));
  facts.import_speed = {files, bytes, cited};
  return facts;
}

const MigrateFacts& builtin_migrate_facts() {
  static const MigrateFacts facts = builtin_or_abort(
      load_migrate_facts(builtin_migrate_facts_yaml(), "profiles/migrate.yaml (built in)"), "migrate facts");
  return facts;
}

}  // namespace tfwsl::migrate
