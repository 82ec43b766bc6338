#include "win/tasks/provision_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>

#include "common/agent_api/provision_recap.hpp"
#include "common/core/exit_codes.hpp"
#include "common/process/process_runner.hpp"
#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/provision/progress_relay.hpp"
#include "common/provision/provision_catalogue.hpp"
#include "common/provision/provision_state_paths.hpp"
#include "common/text/utf_convert.hpp"
#include "win/agent_client/wsl_agent_host.hpp"
#include "win/platform/host_platform.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/tasks/provision_host.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

Result<nlohmann::json> run_distro_half(const ProvisionRunRequest& request, bool windows, const std::string& distro,
                                       ProcessRunner& runner, wsl::WslClient& wsl) {
  std::vector<std::string> agent_args = agent_provision_args(request, windows);
  TFWSL_TRY(profile_yaml, sent_profile(request));
  constexpr auto k_limit = std::chrono::hours(2);
  // The agent's progress lines on its stderr, read as they come, reach the status line.
  auto relay = std::make_shared<provision::ProgressRelay>(request.progress);
  std::function<void(std::string_view)> on_stderr;
  if (request.progress) on_stderr = [relay](std::string_view piece) { relay->feed(piece); };
  if (windows) {
    agent_args.insert(agent_args.begin(), distro_agent_path());
    TFWSL_TRY(reply, wsl.exec({distro, "root", ""}, agent_args, profile_yaml, k_limit, on_stderr));
    return recap_from_agent_answer(reply.text, reply.err_text, reply.exit_code, true);
  }
  TFWSL_TRY(binary, find_local_agent_binary(request.agent));
  ProcessRequest process;
  process.argv = {path_to_utf8(binary)};
  process.argv.insert(process.argv.end(), agent_args.begin(), agent_args.end());
  process.stdin_data = profile_yaml;
  process.timeout = k_limit;
  process.on_stderr = on_stderr;
  TFWSL_TRY(outcome, runner.run(process));
  return recap_from_agent_answer(outcome.out, outcome.err, outcome.exit_code, false);
}

// Each step's result as the wire says it; a step without a readable one counts as skipped.
agent_api::StepResult step_result(const nlohmann::json& step) {
  const auto result = step.is_object() && step.contains("result") && step["result"].is_string()
                          ? agent_api::parse_step_result(step["result"].get<std::string>())
                          : std::nullopt;
  return result.value_or(agent_api::StepResult::skipped);
}

void add(agent_api::RecapCounts& counts, agent_api::StepResult result) {
  switch (result) {
    case agent_api::StepResult::ok:
      ++counts.ok;
      break;
    case agent_api::StepResult::changed:
      ++counts.changed;
      break;
    case agent_api::StepResult::failed:
      ++counts.failed;
      break;
    case agent_api::StepResult::skipped:
      ++counts.skipped;
      break;
  }
}

nlohmann::json merge_recap(const nlohmann::json& host, const nlohmann::json& distro, bool check_only) {
  nlohmann::json recap =
      distro.is_object()
          ? distro
          : nlohmann::json{
                {"steps", nlohmann::json::array()}, {"run", ""}, {"state_dir", ""}, {"interrupted_step", nullptr}};
  recap["check_mode"] = check_only;
  recap["host_steps"] = host.value("steps", nlohmann::json::array());
  agent_api::RecapCounts counts;
  for (const auto* list : {&recap["host_steps"], &recap["steps"]})
    for (const auto& s : *list) add(counts, step_result(s));
  recap["counts"] = agent_api::to_json(counts);
  return recap;
}

std::string wslconfig_path() {
  if (auto p = wsl::process_environment_variable("TFWSL_WSLCONFIG")) return *p;
  if (auto home = wsl::process_environment_variable("USERPROFILE")) return *home + "\\.wslconfig";
  return {};
}

bool every_step_ok(const nlohmann::json& recap) {
  if (!recap.is_object() || !recap.contains("steps") || !recap["steps"].is_array()) return false;
  for (const auto& s : recap["steps"])
    if (step_result(s) != agent_api::StepResult::ok) return false;
  return true;
}

// An apply asks the distro half to check first: when every distro step is already ok, that check
// is the recap and nothing runs as root to change the distro (a second run changes nothing, and
// starts no apply at all); otherwise the apply runs (it checks each step again before changing it).
Result<nlohmann::json> distro_half_checked_first(const ProvisionRunRequest& request, bool windows,
                                                 const std::string& distro, ProcessRunner& runner,
                                                 wsl::WslClient& wsl) {
  if (request.check) return run_distro_half(request, windows, distro, runner, wsl);
  ProvisionRunRequest checking = request;
  checking.check = true;
  if (auto checked = run_distro_half(checking, windows, distro, runner, wsl); checked && every_step_ok(*checked))
    return checked;
  return run_distro_half(request, windows, distro, runner, wsl);
}

}  // namespace

// Without a recap the agent stopped before it could say which step failed: the step logs it wrote
// up to then are the place to look, so the message names them.
Result<nlohmann::json> recap_from_agent_answer(const std::string& out, const std::string& err, long long code,
                                               bool in_distro) {
  auto j = nlohmann::json::parse(out, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("recap"))
    return make_error(ErrorCode::process,
                      fmt::format("tfwsl-agent provision exited {} without a recap: {}; step logs: {}{}", code,
                                  provision::without_progress_lines(err).substr(0, 2000),
                                  provision::k_default_step_logs_dir, in_distro ? " in the distro" : ""));
  // Read at the edge, typed: what goes on is the recap as the wire defines it.
  TFWSL_TRY(recap, agent_api::parse_provision_recap(j["recap"]));
  return agent_api::to_json(recap);
}

// When the distro half gave no recap (it could not run, or the host steps failed first), every
// distro step of the plan is listed as skipped with the reason, so the recap names all of them.
nlohmann::json unchecked_distro_steps(const provision::ProvisionPlan& plan, const std::string& reason) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : plan.distro_steps) {
    if (!step.definition) continue;
    steps.push_back({{"id", std::string(step.definition->id)},
                     {"title", std::string(step.definition->title)},
                     {"result", "skipped"},
                     {"message", "not checked: " + reason}});
  }
  return steps;
}

// From Windows the distro is WSL's; the native build may itself run inside a WSL distro, which the
// agent tells from the kernel and WSL_DISTRO_NAME (--platform auto).
std::vector<std::string> agent_provision_args(const ProvisionRunRequest& request, bool windows) {
  std::vector<std::string> argv = {"provision", "--profile", "-", "--platform", windows ? "wsl" : "auto", "--json"};
  if (request.check) argv.push_back("--check");
  if (request.progress) argv.push_back("--progress-json");
  if (!request.user.empty()) argv.insert(argv.end(), {"--user", request.user});
  return argv;
}

Result<std::string> sent_profile(const ProvisionRunRequest& request) {
  ProfileLoadOptions options;
  options.overrides = request.overrides;
  TFWSL_TRY(profile, load_valid_profile(request.profile, options));
  return emit_profile(profile);
}

std::string distro_agent_path() {
  if (auto path = wsl::process_environment_variable(agent_client::k_agent_path_env)) return *path;
  return agent_client::k_default_agent_path;
}

nlohmann::json run_provision_steps(const ProvisionRunRequest& request, const provision::ProvisionPlan& plan,
                                   Machine& machine) {
  const bool windows = machine.host.system().is_windows;
  ProcessRunner& runner = machine.processes;
  wsl::WslClient& wsl = machine.wsl;
  nlohmann::json host = {{"steps", nlohmann::json::array()}};
  if (windows) host = run_host_steps(plan, wsl, runner, {request.check, wslconfig_path()});
  nlohmann::json distro;
  std::string distro_error;
  if (!host.contains("failed")) {
    ProvisionRunRequest distro_request = request;  // the venv's owner: --user, else the distro's default user
    if (distro_request.user.empty() && host.contains("default_user"))
      distro_request.user = host["default_user"].get<std::string>();
    auto answer = distro_half_checked_first(distro_request, windows, plan.distro, runner, wsl);
    if (answer)
      distro = *answer;
    else
      distro_error = answer.error().describe();
  }
  if (!distro.is_object()) {
    const std::string reason =
        !distro_error.empty() ? "the distro half did not run (see the line below)" : "a host step failed first";
    distro = {
        {"steps", unchecked_distro_steps(plan, reason)}, {"run", ""}, {"state_dir", ""}, {"interrupted_step", nullptr}};
  }
  nlohmann::json recap = merge_recap(host, distro, request.check);
  if (!distro_error.empty()) {
    recap["error"] = distro_error;
    agent_api::RecapCounts counts = recap_counts(recap);
    ++counts.failed;
    recap["counts"] = agent_api::to_json(counts);
  }
  return recap;
}

agent_api::RecapCounts recap_counts(const nlohmann::json& recap) {
  return agent_api::parse_recap_counts(recap.value("counts", nlohmann::json::object()))
      .value_or(agent_api::RecapCounts{0, 0, 1, 0});
}

int provision_exit_code(const nlohmann::json& recap, bool check) {
  const agent_api::RecapCounts counts = recap_counts(recap);
  if (counts.failed > 0) return exit_code::k_failure;
  return check && counts.changed > 0 ? exit_code::k_warning : exit_code::k_ok;
}

}  // namespace tfwsl::cli
