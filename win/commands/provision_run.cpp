#include "win/commands/provision_run.hpp"

#include <chrono>

#include <fmt/format.h>

#include "common/agent_client/wsl_agent_host.hpp"
#include "common/core/exit_codes.hpp"
#include "common/process/process_runner.hpp"
#include "common/profile/profile_source.hpp"
#include "common/text/utf_convert.hpp"
#include "common/wsl/drive_path.hpp"
#include "common/wsl/wsl_client.hpp"
#include "win/commands/local_agent_binary.hpp"
#include "win/commands/provision_host.hpp"
#include "win/platform/host_platform.hpp"

namespace tfwsl::cli {
namespace {

bool is_shipped_profile(const std::string& name) {
  for (const auto& shipped : shipped_profile_names())
    if (shipped == name) return true;
  return false;
}

Result<nlohmann::json> parse_agent_answer(const std::string& out, const std::string& err, long long code) {
  auto j = nlohmann::json::parse(out, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("recap"))
    return make_error(ErrorCode::process, fmt::format("tfwsl-agent provision exited {} without a recap: {}", code, err.substr(0, 2000)));
  return j["recap"];
}

Result<nlohmann::json> run_distro_half(const ProvisionRunRequest& request, bool windows, const std::string& distro, ProcessRunner& runner,
                                       wsl::WslClient& wsl) {
  TFWSL_TRY(agent_args, agent_provision_args(request, windows));
  constexpr auto k_limit = std::chrono::hours(2);
  if (windows) {
    agent_args.insert(agent_args.begin(), distro_agent_path());
    TFWSL_TRY(reply, wsl.exec({distro, "root", ""}, agent_args, std::nullopt, k_limit));
    return parse_agent_answer(reply.text, reply.err_text, reply.exit_code);
  }
  TFWSL_TRY(binary, find_local_agent_binary(request.agent));
  ProcessRequest process;
  process.argv = {path_to_utf8(binary)};
  process.argv.insert(process.argv.end(), agent_args.begin(), agent_args.end());
  process.timeout = k_limit;
  TFWSL_TRY(outcome, runner.run(process));
  return parse_agent_answer(outcome.out, outcome.err, outcome.exit_code);
}

bool changes_nothing(const nlohmann::json& recap) {
  for (const auto& step : recap.value("steps", nlohmann::json::array()))
    if (step.value("result", "") != "ok" && step.value("result", "") != "skipped") return false;
  return true;
}

// An apply checks the distro's steps first (the agent as root, writing nothing) and asks for the
// apply only when one would change: a machine already provisioned, as a fleet engine's every run
// finds it, is never changed by root, and the recap is the check's, every step ok.
Result<nlohmann::json> run_distro_half_checked_first(const ProvisionRunRequest& request, bool windows, const std::string& distro,
                                                     ProcessRunner& runner, wsl::WslClient& wsl) {
  if (request.check) return run_distro_half(request, windows, distro, runner, wsl);
  ProvisionRunRequest check = request;
  check.check = true;
  auto checked = run_distro_half(check, windows, distro, runner, wsl);
  if (checked && changes_nothing(*checked)) {
    (*checked)["check_mode"] = false;
    return checked;
  }
  return run_distro_half(request, windows, distro, runner, wsl);
}

nlohmann::json merge_recap(const nlohmann::json& host, const nlohmann::json& distro, bool check_only) {
  nlohmann::json recap = distro.is_object() ? distro : nlohmann::json{{"steps", nlohmann::json::array()}, {"run", ""},
                                                                       {"state_dir", ""}, {"interrupted_step", nullptr}};
  recap["check_mode"] = check_only;
  recap["host_steps"] = host.value("steps", nlohmann::json::array());
  nlohmann::json counts = {{"ok", 0}, {"changed", 0}, {"failed", 0}, {"skipped", 0}};
  for (const auto* list : {&recap["host_steps"], &recap["steps"]})
    for (const auto& s : *list) counts[s.value("result", "skipped")] = counts[s.value("result", "skipped")].get<int>() + 1;
  recap["counts"] = counts;
  return recap;
}

std::string wslconfig_path() {
  if (auto p = wsl::process_environment_variable("TFWSL_WSLCONFIG")) return *p;
  if (auto home = wsl::process_environment_variable("USERPROFILE")) return *home + "\\.wslconfig";
  return {};
}

}  // namespace

Result<std::vector<std::string>> agent_provision_args(const ProvisionRunRequest& request, bool windows) {
  std::string profile = request.profile;
  if (windows && !is_shipped_profile(profile)) {
    auto in_distro = wsl::drive_path_in_distro(profile, "/mnt/");
    if (!in_distro) return make_error(ErrorCode::invalid_input, fmt::format("'{}' is not a path on a Windows drive", profile),
                                      "give a built-in profile name or a file such as C:\\team\\profile.yaml");
    profile = *in_distro;
  }
  std::vector<std::string> argv = {"provision", "--profile", profile, "--platform", windows ? "wsl" : "native", "--json"};
  if (request.check) argv.push_back("--check");
  if (!request.user.empty()) argv.insert(argv.end(), {"--user", request.user});
  return argv;
}

std::string distro_agent_path() {
  if (auto path = wsl::process_environment_variable(agent_client::k_agent_path_env)) return *path;
  return agent_client::k_default_agent_path;
}

nlohmann::json run_provision_steps(const ProvisionRunRequest& request, const provision::ProvisionPlan& plan) {
  const bool windows = read_system_info().is_windows;
  SystemProcessRunner runner;
  wsl::WslClient wsl(runner, wsl::wsl_settings_from_environment());
  nlohmann::json host = {{"steps", nlohmann::json::array()}};
  if (windows) host = run_host_steps(plan, wsl, runner, {request.check, wslconfig_path()});
  nlohmann::json distro;
  std::string distro_error;
  if (!host.contains("failed")) {
    ProvisionRunRequest distro_request = request;  // the venv's owner: --user, else the distro's default user
    if (distro_request.user.empty() && host.contains("default_user")) distro_request.user = host["default_user"].get<std::string>();
    auto answer = run_distro_half_checked_first(distro_request, windows, plan.distro, runner, wsl);
    if (answer) distro = *answer;
    else distro_error = answer.error().describe();
  }
  nlohmann::json recap = merge_recap(host, distro, request.check);
  if (!distro_error.empty()) {
    recap["error"] = distro_error;
    recap["counts"]["failed"] = recap["counts"]["failed"].get<int>() + 1;
  }
  return recap;
}

int provision_exit_code(const nlohmann::json& recap, bool check) {
  if (recap["counts"]["failed"].get<int>() > 0) return exit_code::k_failure;
  return check && recap["counts"]["changed"].get<int>() > 0 ? exit_code::k_warning : exit_code::k_ok;
}

}  // namespace tfwsl::cli
