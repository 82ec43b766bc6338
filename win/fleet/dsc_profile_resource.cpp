#include "win/fleet/dsc_profile_resource.hpp"

#include <fmt/format.h>

#include <optional>

#include "win/fleet/dsc_document.hpp"
#include "win/fleet/dsc_schema_refs.hpp"

namespace tfwsl::cli::dsc {
namespace {

using nlohmann::json;

struct ProfileDesired {
  std::string profile;
  std::optional<std::string> user;
};

Result<ProfileDesired> read_profile_desired(const json& input) {
  if (!input.is_object())
    return make_error(ErrorCode::invalid_input, fmt::format("the {} instance must be a JSON object", k_profile_type));
  ProfileDesired desired;
  for (const auto& [name, value] : input.items()) {
    if (name == "profile" || name == "user") {
      if (!value.is_string() || value.get<std::string>().empty())
        return make_error(ErrorCode::invalid_input, fmt::format("'{}' must be a non-empty string", name));
      (name == "profile" ? desired.profile : desired.user.emplace()) = value.get<std::string>();
    } else if (name != "steps" && name != "counts" && name != "_inDesiredState") {
      return make_error(ErrorCode::invalid_input, fmt::format("'{}' is not a property of {} (profile, user)",
                                                              shown_dsc_name(name), k_profile_type));
    }
  }
  if (desired.profile.empty())
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{} needs 'profile': a built-in profile's name (tfwsl profile show --json lists "
                                  "them) or the path of a team's YAML profile",
                                  k_profile_type));
  return desired;
}

std::vector<std::string> provision_argv(const ProfileDesired& desired, const char* mode) {
  std::vector<std::string> args{"provision", mode, "--json", "--profile", desired.profile};
  if (desired.user) {
    args.push_back("--user");
    args.push_back(*desired.user);
  }
  return args;
}

struct CheckedProfile {
  json state;
  bool in_desired_state = false;
};

// provision's exit status: 0 nothing to change, 1 steps would change, 2 a step failed. A recap
// with failed checks is still a state (the step says why); no recap at all is an error.
Result<CheckedProfile> check_profile(const ProfileDesired& desired, TfwslInvoker& tfwsl) {
  const auto args = provision_argv(desired, "--check");
  TFWSL_TRY(reply, tfwsl.run(args));
  TFWSL_TRY(document, json_document(reply, args));
  const json recap = document.value("recap", json::object());
  if (!recap.contains("counts"))
    return make_error(ErrorCode::process, fmt::format("tfwsl provision --check gave no recap (exit {}): {}",
                                                      reply.exit_code, recap.value("error", reply.err)));
  json steps = json::array();
  for (const char* list : {"host_steps", "steps"})
    for (const json& step : recap.value(list, json::array()))
      steps.push_back(
          {{"id", step.value("id", "")}, {"result", step.value("result", "")}, {"message", step.value("message", "")}});
  json state = {{"profile", desired.profile}, {"steps", steps}, {"counts", recap["counts"]}};
  if (desired.user) state["user"] = *desired.user;
  if (recap.contains("error")) state["error"] = recap["error"];
  return CheckedProfile{state, reply.exit_code == 0};
}

}  // namespace

json profile_instance_schema() {
  const json step = {{"type", "object"},
                     {"required", {"id", "result", "message"}},
                     {"additionalProperties", false},
                     {"properties",
                      {{"id", {{"type", "string"}}},
                       {"result", {{"enum", {"ok", "changed", "failed", "skipped"}}}},
                       {"message", {{"type", "string"}}}}}};
  const json count = {{"type", "integer"}, {"minimum", 0}};
  return with_bundled_dsc_definitions(
      {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
       {"title", k_profile_type},
       {"description", "A WSL distro provisioned for a tfwsl profile (tfwsl provision)"},
       {"type", "object"},
       {"required", {"profile"}},
       {"additionalProperties", false},
       {"properties",
        {{"profile",
          {{"type", "string"}, {"minLength", 1}, {"description", "a built-in profile's name or a YAML file"}}},
         {"user", {{"type", "string"}, {"minLength", 1}, {"description", "the distro user who owns the venv"}}},
         {"steps",
          {{"type", "array"},
           {"readOnly", true},
           {"items", step},
           {"description", "each provisioning step as checked: ok, changed (would change), failed, skipped"}}},
         {"counts",
          {{"type", "object"},
           {"readOnly", true},
           {"properties", {{"ok", count}, {"changed", count}, {"failed", count}, {"skipped", count}}}}},
         {"error", {{"type", "string"}, {"readOnly", true}}},
         {"_inDesiredState", in_desired_state_property()}}}});
}

Result<json> profile_get(const json& input, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_profile_desired(input));
  TFWSL_TRY(checked, check_profile(desired, tfwsl));
  return checked.state;
}

Result<ProfileTest> profile_test(const json& input, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_profile_desired(input));
  TFWSL_TRY(checked, check_profile(desired, tfwsl));
  ProfileTest outcome{checked.state, {}};
  outcome.state["_inDesiredState"] = checked.in_desired_state;
  if (!checked.in_desired_state) outcome.differing.push_back("steps");
  return outcome;
}

Result<json> profile_set(const json& input, TfwslInvoker& tfwsl) {
  TFWSL_TRY(desired, read_profile_desired(input));
  TFWSL_TRY(before, check_profile(desired, tfwsl));
  if (before.in_desired_state) return before.state;
  const auto args = provision_argv(desired, "--yes");
  TFWSL_TRY(reply, tfwsl.run(args));
  TFWSL_TRY(applied, json_document(reply, args));
  if (reply.exit_code == 2) {
    std::string failed;
    for (const char* list : {"host_steps", "steps"})
      for (const json& step : applied.value("recap", json::object()).value(list, json::array()))
        if (step.value("result", "") == "failed")
          failed +=
              fmt::format("{}{}: {}", failed.empty() ? "" : "; ", step.value("id", ""), step.value("message", ""));
    return make_error(ErrorCode::process,
                      fmt::format("tfwsl provision failed: {}", failed.empty() ? reply.err : failed));
  }
  TFWSL_TRY(after, check_profile(desired, tfwsl));
  return after.state;
}

Result<std::vector<json>> profile_export(const json& filter, const std::string& in_effect, TfwslInvoker& tfwsl) {
  json input = filter;
  if (input.is_object() && !input.contains("profile")) input["profile"] = in_effect;
  TFWSL_TRY(desired, read_profile_desired(input));
  TFWSL_TRY(checked, check_profile(desired, tfwsl));
  return std::vector<json>{std::move(checked.state)};
}

}  // namespace tfwsl::cli::dsc
