#include "win/migrate/vscode_files.hpp"

#include <fmt/format.h>

#include "common/util/nesting_depth.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::migrate {
namespace {

std::string interpreter(const WslCopyRecord& record) { return record.venv + "/bin/python"; }

// The object in `existing`, or an empty one. JSONC (VS Code's settings allow comments and trailing
// commas) parses only with what would be lost on a rewrite: refused, naming the keys to add.
Result<nlohmann::json> existing_object(const std::optional<std::string>& existing, const std::string& relative,
                                       const std::string& by_hand) {
  if (!existing) return nlohmann::json::object();
  TFWSL_TRY_STATUS(check_nesting_depth(*existing, NestingSyntax::json, relative));
  auto strict = nlohmann::json::parse(*existing, nullptr, false);
  if (strict.is_discarded()) {
    const bool commented = !nlohmann::json::parse(*existing, nullptr, false, true).is_discarded();
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("{} {}: tfwsl rewrites no file it would lose something of, and leaves it as it "
                    "is; add by hand: {}",
                    relative, commented ? "has comments" : "is not plain JSON (comments or trailing commas?)",
                    by_hand));
  }
  if (!strict.is_object())
    return make_error(ErrorCode::invalid_input, fmt::format("{} is not a JSON object; left as it is", relative));
  return strict;
}

std::string emitted(const nlohmann::json& j) {
  return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Sets `key` in `object` to `value` when it is not there; says what it did, or that the user's stays.
void set_unless_theirs(nlohmann::json& object, const std::string& key, const nlohmann::json& value, MergedFile& out,
                       const std::string& shown_prefix = "") {
  const auto it = object.find(key);
  const std::string shown = visible_text(shown_prefix + key);
  if (it == object.end()) {
    object[key] = value;
    out.changes.push_back(fmt::format("{} = {}", shown, visible_text(value.dump())));
  } else if (*it != value) {
    out.kept.push_back(fmt::format("{} = {} (yours; tfwsl's would be {})", shown, visible_text(it->dump()),
                                   visible_text(value.dump())));
  }
}

nlohmann::json launch_configuration(const WslCopyRecord& record) {
  nlohmann::json c = {{"name", launch_configuration_name(record)},
                      {"type", "debugpy"},
                      {"request", "launch"},
                      {"python", interpreter(record)},
                      {"cwd", "${workspaceFolder}"},
                      {"env", record.env},
                      {"console", "integratedTerminal"}};
  if (!record.main.module.empty())
    c["module"] = record.main.module;
  else
    c["program"] = record.main.script.empty() ? "${file}" : "${workspaceFolder}/" + record.main.script;
  return c;
}

}  // namespace

std::string launch_configuration_name(const WslCopyRecord& record) {
  return fmt::format("tfwsl: {} ({})", project_folder_name(record), record.profile);
}

Result<MergedFile> merge_vscode_settings(const std::optional<std::string>& existing, const WslCopyRecord& record) {
  MergedFile out{k_vscode_settings, std::nullopt, {}, {}};
  const std::string by_hand = fmt::format("\"python.defaultInterpreterPath\": \"{}\"", interpreter(record));
  TFWSL_TRY(settings, existing_object(existing, k_vscode_settings, by_hand));
  set_unless_theirs(settings, "python.defaultInterpreterPath", interpreter(record), out);
  // The terminals VS Code opens in the project get the environment tfwsl run sets.
  if (!record.env.empty()) {
    auto& env = settings["terminal.integrated.env.linux"];
    if (env.is_null()) env = nlohmann::json::object();
    if (env.is_object()) {
      for (const auto& [key, value] : record.env)
        set_unless_theirs(env, key, value, out, "terminal.integrated.env.linux.");
    } else {
      out.kept.push_back("terminal.integrated.env.linux (yours, not an object)");
    }
  }
  if (!out.changes.empty()) out.text = emitted(settings);
  return out;
}

Result<MergedFile> merge_vscode_launch(const std::optional<std::string>& existing, const WslCopyRecord& record) {
  MergedFile out{k_vscode_launch, std::nullopt, {}, {}};
  const nlohmann::json ours = launch_configuration(record);
  TFWSL_TRY(launch, existing_object(existing, k_vscode_launch, "a configuration " + ours.dump()));
  if (!launch.contains("version")) launch["version"] = "0.2.0";
  auto& configurations = launch["configurations"];
  if (configurations.is_null()) configurations = nlohmann::json::array();
  if (!configurations.is_array())
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{}: \"configurations\" is not a list; left as it is", k_vscode_launch));
  for (const auto& c : configurations) {
    if (c.is_object() && c.value("name", nlohmann::json()) == ours["name"]) {
      if (c != ours)
        out.kept.push_back(
            fmt::format("the configuration \"{}\" (yours now)", visible_text(ours["name"].get<std::string>())));
      return out;
    }
  }
  configurations.push_back(ours);
  out.changes.push_back(fmt::format("the debug configuration \"{}\"", visible_text(ours["name"].get<std::string>())));
  out.text = emitted(launch);
  return out;
}

}  // namespace tfwsl::migrate
