#include "win/tasks/doctor_container_route.hpp"

#include <fmt/format.h>

#include "common/compat/compat_db.hpp"
#include "common/provision/provision_plan.hpp"
#include "win/tasks/provision_run.hpp"

namespace tfwsl::cli {
namespace {

// A check-mode message is "would change: WHAT WAS FOUND -> WHAT APPLY DOES": the doctor says what
// was found.
std::string found_part(std::string message) {
  constexpr std::string_view k_would = "would change: ";
  if (message.rfind(k_would, 0) == 0) message.erase(0, k_would.size());
  if (const auto arrow = message.find(" -> "); arrow != std::string::npos) message.resize(arrow);
  return message;
}

struct StepSeen {
  std::string result;  // ok, changed (would change), failed, skipped; "" when absent
  std::string message;
};

StepSeen step_of(const nlohmann::json& recap, std::string_view id) {
  if (!recap.is_object() || !recap.contains("steps") || !recap["steps"].is_array()) return {};
  for (const auto& step : recap["steps"])
    if (step.is_object() && step.value("id", "") == id) return {step.value("result", ""), step.value("message", "")};
  return {};
}

CheckResult row(std::string id, const std::vector<StepSeen>& steps, const std::string& ok_summary,
                const std::string& profile) {
  CheckResult r;
  r.id = std::move(id);
  for (const auto& s : steps) {
    r.details.push_back(s.message);
    if (s.result.empty() || s.result == "skipped") {
      r.status = CheckStatus::skip;
      r.summary = s.result.empty() ? "not checked: the distro half of `tfwsl provision --check` gave no answer"
                                   : "not checked: " + found_part(s.message);
      return r;
    }
    if (s.result != "ok") {
      r.status = CheckStatus::fail;
      r.summary = found_part(s.message);
      // doctor --fix passes the profile on (options_passed_on), as for every provision fix.
      r.fix_command = {"provision"};
      r.fix = "tfwsl provision --profile " + profile;
      return r;
    }
  }
  r.status = CheckStatus::ok;
  r.summary = ok_summary.empty() ? found_part(steps.back().message) : ok_summary;
  return r;
}

}  // namespace

std::vector<CheckResult> container_checks_from_recap(const nlohmann::json& recap, const std::string& profile) {
  const StepSeen engine = step_of(recap, "container.engine");
  const StepSeen repository = step_of(recap, "container.toolkit-repository");
  const StepSeen toolkit = step_of(recap, "container.toolkit");
  const StepSeen spec = step_of(recap, "container.cdi-spec");
  const StepSeen image = step_of(recap, "container.image");
  const StepSeen verify = step_of(recap, "container.verify");
  // container.verify says which of the two failed: no GPU in the container, or the op on it.
  StepSeen gpu = verify;
  if (verify.result == "failed" && verify.message.find("but an op on GPU:0 failed") != std::string::npos)
    gpu = {"ok", verify.message};
  return {row("container.engine", {engine}, "", profile),
          row("container.toolkit", {repository, toolkit}, "", profile),
          row("container.cdi-spec", {spec}, "", profile),
          row("container.image", {image}, "", profile),
          row("container.gpu", {gpu}, gpu.result == "ok" ? "the GPU is visible inside a container of the image" : "",
              profile),
          row("container.tensorflow", {verify}, "", profile)};
}

std::vector<CheckResult> container_route_checks(const Profile& profile, const std::string& profile_arg,
                                                const std::string& agent, Machine& machine) {
  provision::PlanSettings settings;
  settings.inside_wsl = machine.host.system().is_windows;
  nlohmann::json recap;
  if (auto plan = provision::build_provision_plan(profile, builtin_compat_db(), settings); plan)
    recap = run_provision_steps({profile_arg, true, "", agent}, *plan, machine);
  return container_checks_from_recap(recap, profile_arg);
}

}  // namespace tfwsl::cli
