#include "win/fleet/dsc_wslconfig_resource.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/util/ascii.hpp"
#include "common/wslconfig/wslconfig_keys.hpp"
#include "win/fleet/dsc_document.hpp"
#include "win/fleet/dsc_schema_refs.hpp"

namespace tfwsl::cli::dsc {
namespace {

using nlohmann::json;
using wslconfig::KnownKey;
using wslconfig::ValueKind;

constexpr const char* k_experimental = "experimental";

// The documented keys a resource instance may name: [wsl2] at the top level, [experimental] in
// its own object (the two sections share some names: networkingMode, dnsTunneling, ...). The
// table also lists where an older wsl.exe read a key (an [experimental] entry without a default):
// those are left out, as `wslconfig set` writes a key where WSL reads it today.
std::vector<KnownKey> managed_keys_of(std::string_view section) {
  std::vector<KnownKey> keys;
  for (const KnownKey& key : wslconfig::known_keys())
    if (key.section == section && key.default_rule != wslconfig::DefaultRule::none) keys.push_back(key);
  return keys;
}

json key_schema(const KnownKey& key) {
  switch (key.kind) {
    case ValueKind::boolean:
      return {{"type", "boolean"}};
    case ValueKind::number:
      return {{"type", "integer"}, {"minimum", 0}};
    case ValueKind::size:
    case ValueKind::path:
    case ValueKind::text:
      return {{"type", "string"}, {"minLength", 1}};
  }
  return {{"type", "string"}};
}

json key_properties(std::string_view section) {
  json properties = json::object();
  for (const KnownKey& key : managed_keys_of(section)) {
    json p = key_schema(key);
    p["description"] = fmt::format("[{}] {} (WSL's default: {})", section, key.name,
                                   key.default_value.empty() ? "none" : std::string(key.default_value));
    properties[std::string(key.name)] = std::move(p);
  }
  return properties;
}

std::optional<KnownKey> managed_key_named(std::string_view section, const std::string& name) {
  for (const KnownKey& key : managed_keys_of(section))
    if (key.name == name) return key;
  return std::nullopt;
}

// A desired value as `wslconfig set` takes it, or why it cannot be one.
Result<std::string> assignment_text(const KnownKey& key, const json& value, const std::string& where) {
  const bool fits = (key.kind == ValueKind::boolean && value.is_boolean()) ||
                    // Parsed JSON holds 6 as unsigned, a document built in C++ as signed: both are a count.
                    (key.kind == ValueKind::number && value.is_number_integer() && value.get<long long>() >= 0) ||
                    (key.kind != ValueKind::boolean && key.kind != ValueKind::number && value.is_string() &&
                     !value.get<std::string>().empty());
  if (!fits)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' must be {}, not {}", where, key_schema(key)["type"].get<std::string>(),
                                  shown_dsc_value(value)));
  if (value.is_boolean()) return std::string(value.get<bool>() ? "true" : "false");
  if (value.is_number()) return std::to_string(value.get<std::uint64_t>());
  return value.get<std::string>();
}

// The file's text as the schema types it; nothing when it is not of that type (the state leaves a
// key out rather than break its schema; `tfwsl wslconfig show` names the bad line).
std::optional<json> typed_value(const KnownKey& key, const std::string& text) {
  if (key.kind == ValueKind::boolean) {
    if (iequals(text, "true")) return json(true);
    if (iequals(text, "false")) return json(false);
    return std::nullopt;
  }
  if (key.kind == ValueKind::number) {
    if (!ascii_all_digits(text) || text.size() > 18) return std::nullopt;
    return json(std::stoull(text));
  }
  if (text.empty()) return std::nullopt;
  return json(text);
}

struct WslconfigDesired {
  std::optional<std::string> file;
  bool restart = false;
  std::vector<std::string> assignments;  // "memory=16GB", "experimental.sparseVhd=false"
};

Status add_section_keys(const json& object, std::string_view section, WslconfigDesired& desired) {
  for (const auto& [name, value] : object.items()) {
    const std::string where = section == "wsl2" ? name : fmt::format("{}.{}", section, name);
    const auto key = managed_key_named(section, name);
    if (!key)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("'{}' is not a .wslconfig [{}] key this resource manages (see `tfwsl dsc schema "
                                    "--resource {}`)",
                                    shown_dsc_name(where), section, k_wslconfig_type));
    TFWSL_TRY(text, assignment_text(*key, value, where));
    desired.assignments.push_back(fmt::format("{}.{}={}", section, name, text));
  }
  return {};
}

Result<WslconfigDesired> read_wslconfig_desired(const json& input) {
  if (!input.is_object())
    return make_error(ErrorCode::invalid_input, fmt::format("the {} instance must be a JSON object", k_wslconfig_type));
  WslconfigDesired desired;
  json wsl2 = json::object();
  for (const auto& [name, value] : input.items()) {
    if (name == "file") {
      if (!value.is_string() || value.get<std::string>().empty())
        return make_error(ErrorCode::invalid_input, "'file' must be the path of a .wslconfig");
      desired.file = value.get<std::string>();
    } else if (name == "restart") {
      if (!value.is_boolean()) return make_error(ErrorCode::invalid_input, "'restart' must be true or false");
      desired.restart = value.get<bool>();
    } else if (name == k_experimental) {
      if (!value.is_object()) return make_error(ErrorCode::invalid_input, "'experimental' must be an object of keys");
      TFWSL_TRY_STATUS(add_section_keys(value, k_experimental, desired));
    } else if (name != "_inDesiredState") {
      wsl2[name] = value;
    }
  }
  TFWSL_TRY_STATUS(add_section_keys(wsl2, "wsl2", desired));
  return desired;
}

std::vector<std::string> with_file_option(std::vector<std::string> args, const WslconfigDesired& desired) {
  if (desired.file) {
    args.push_back("--file");
    args.push_back(*desired.file);
  }
  return args;
}

// "memory" for a [wsl2] key, "experimental" for one of that section: the property that differs.
std::string differing_property(const json& change) {
  const std::string section = change.value("section", "wsl2");
  return section == "wsl2" ? change.value("key", "") : section;
}

Result<json> wslconfig_state(const WslconfigDesired& desired, TfwslInvoker& tfwsl) {
  const auto args = with_file_option({"wslconfig", "show", "--json"}, desired);
  TFWSL_TRY(reply, tfwsl.run(args));
  TFWSL_TRY(shown, json_document(reply, args));
  json state = {{"file", shown.value("file", "")}};
  for (const json& v : shown.value("values", json::array())) {
    if (v.value("source", "") != "file") continue;
    const std::string section = v.value("section", "");
    const auto key = managed_key_named(section, v.value("key", ""));
    if (!key) continue;
    const auto value = typed_value(*key, v.value("value", ""));
    if (!value) continue;
    if (section == "wsl2")
      state[std::string(key->name)] = *value;
    else
      state[k_experimental][std::string(key->name)] = *value;
  }
  return state;
}

}  // namespace

json wslconfig_instance_schema() {
  json properties = key_properties("wsl2");
  properties["file"] = {{"type", "string"},
                        {"minLength", 1},
                        {"description", "the .wslconfig to manage (default: %UserProfile%\\.wslconfig)"}};
  properties["restart"] = {{"type", "boolean"},
                           {"writeOnly", true},
                           {"description", "set: restart WSL (wsl --shutdown) and check the values took effect"}};
  properties[k_experimental] = {{"type", "object"},
                                {"additionalProperties", false},
                                {"properties", key_properties(k_experimental)},
                                {"description", "keys of the [experimental] section"}};
  properties["_inDesiredState"] = in_desired_state_property();
  return with_bundled_dsc_definitions(
      {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
       {"title", k_wslconfig_type},
       {"description", "Values of a .wslconfig, written by tfwsl's editor (backup, atomic, encoding kept)"},
       {"type", "object"},
       {"additionalProperties", false},
       {"properties", properties}});
}

Result<json> wslconfig_get(const json& input, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_wslconfig_desired(input));
  return wslconfig_state(desired, tfwsl);
}

Result<TestOutcome> wslconfig_test(const json& input, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_wslconfig_desired(input));
  TestOutcome outcome;
  if (!desired.assignments.empty()) {
    std::vector<std::string> args{"wslconfig", "set"};
    args.insert(args.end(), desired.assignments.begin(), desired.assignments.end());
    args = with_file_option(args, desired);
    args.insert(args.end(), {"--dry-run", "--json"});
    TFWSL_TRY(reply, tfwsl.run(args));
    TFWSL_TRY(planned, json_document(reply, args));
    for (const json& change : planned.value("changes", json::array()))
      if (change.value("before", json()) != change.value("after", json())) {
        const std::string property = differing_property(change);
        if (std::find(outcome.differing.begin(), outcome.differing.end(), property) == outcome.differing.end())
          outcome.differing.push_back(property);
      }
  }
  TFWSL_TRY(state, wslconfig_state(desired, tfwsl));
  state["_inDesiredState"] = outcome.differing.empty();
  outcome.state = std::move(state);
  return outcome;
}

Result<json> wslconfig_set(const json& input, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_wslconfig_desired(input));
  TFWSL_TRY(tested, wslconfig_test(input, tfwsl));
  if (tested.differing.empty()) {
    tested.state.erase("_inDesiredState");
    return tested.state;
  }
  std::vector<std::string> args{"wslconfig", "set"};
  args.insert(args.end(), desired.assignments.begin(), desired.assignments.end());
  args = with_file_option(args, desired);
  args.insert(args.end(), {"--yes", "--json"});
  if (desired.restart) args.push_back("--apply");
  TFWSL_TRY(reply, tfwsl.run(args));
  TFWSL_TRY(written, json_document(reply, args));
  if (reply.exit_code == 2 || !written.value("written", false))
    return make_error(ErrorCode::io, fmt::format("tfwsl wslconfig set did not write the file (exit {}): {}",
                                                 reply.exit_code, reply.err.empty() ? "no message" : reply.err));
  return wslconfig_state(desired, tfwsl);
}

Result<std::vector<json>> wslconfig_export(const json& filter, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_wslconfig_desired(filter));
  TFWSL_TRY(state, wslconfig_state(desired, tfwsl));
  return std::vector<json>{std::move(state)};
}

}  // namespace tfwsl::cli::dsc
