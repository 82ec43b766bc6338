#include "win/doctor/doctor.hpp"

#include <spdlog/spdlog.h>

#include "common/check/check_table.hpp"
#include "common/judge/assess.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "win/doctor/data_location.hpp"
#include "win/doctor/joined_task.hpp"
#include "win/doctor/wslconfig_overrides.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::doctor {
namespace {

using Clock = std::chrono::steady_clock;

nlohmann::json host_json(const host::HostFacts& h) {
  nlohmann::json j;
  j["is_windows"] = h.is_windows;
  if (h.windows_build) j["windows_build"] = *h.windows_build;
  if (h.windows_ubr) j["windows_ubr"] = *h.windows_ubr;
  if (h.ram_bytes) j["ram_bytes"] = *h.ram_bytes;
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : h.gpus)
    gpus.push_back({{"name", g.name},
                    {"driver_version", g.driver_version},
                    {"windows_driver_version", g.windows_driver_version},
                    {"driver_model", host::to_string(g.driver_model)},
                    {"source", g.source}});
  j["gpus"] = gpus;
  if (h.tdr_delay_s) j["tdr_delay_s"] = *h.tdr_delay_s;
  if (h.fast_startup) j["fast_startup"] = *h.fast_startup;
  if (!h.wsl_policies.empty()) j["wsl_policies"] = h.wsl_policies;
  j["notes"] = h.notes;
  return j;
}

}  // namespace

WslFacts wsl_facts_from(const Result<wsl::WslReply>& list, const Result<wsl::WslReply>& version,
                        const std::optional<Result<wsl::WslReply>>& status,
                        std::optional<int> registry_default_version) {
  WslFacts f;
  if (!list) {
    f.ran = false;
    f.run_error = list.error().message;
    return f;
  }
  f.ran = true;
  f.list_failure = list->failure;
  if (list->failure.kind == wsl::WslFailureKind::none) {
    auto parsed = parse::parse_wsl_list(list->text);
    f.distros = parsed.distros;
  }
  if (version) {
    f.version_failure = version->failure;
    if (version->failure.kind == wsl::WslFailureKind::none) {
      auto v = parse::parse_wsl_version(version->text);
      f.wsl_version = v.field(parse::WslVersionField::wsl);
      f.kernel_version = v.field(parse::WslVersionField::kernel);
      f.windows_version = v.field(parse::WslVersionField::windows);
      if (v.errors.cli_too_old()) f.version_failure.kind = wsl::WslFailureKind::cli_too_old;
    }
  } else {
    f.version_failure.kind = wsl::WslFailureKind::other;
    f.version_failure.message = version.error().message;
  }
  if (status && *status && (*status)->failure.kind == wsl::WslFailureKind::none) {
    auto s = parse::parse_wsl_status((*status)->text);
    if (s.default_version) {
      f.default_version = s.default_version;
      f.default_version_source = "wsl --status";
    }
  }
  if (!f.default_version && registry_default_version) {
    f.default_version = registry_default_version;
    f.default_version_source = "registry (HKCU\\...\\Lxss DefaultVersion)";
  }
  return f;
}

namespace {

std::vector<CheckResult> skipped_wsl_checks() {
  std::vector<CheckResult> out;
  for (const auto& id : check_ids(CheckSource::wsl_exe)) {
    out.push_back(
        make_check(id, CheckStatus::skip, "not on Windows: wsl.exe checks need tfwsl.exe on the Windows side"));
  }
  return out;
}

LinuxSide await_linux_side(JoinedTask<LinuxSide>& task, Clock::time_point deadline, const std::string& why_late) {
  if (auto side = task.wait_until(deadline)) return std::move(*side);
  LinuxSide late;
  late.error = why_late;
  return late;
}

using WslTask = JoinedTask<Result<wsl::WslReply>>;

void announce_step(const DoctorEnvironment& env, const std::string& step) {
  if (env.progress) env.progress(step);
}

// wsl.exe -l -v and --version (already running), --status only for an inbox wsl.exe without the
// registry's default version, then the Linux side in the chosen distro: three starts at most.
void gather_windows_side(const DoctorEnvironment& env, Clock::time_point started, WslTask& list_task,
                         WslTask& version_task, MachineFacts& g) {
  const auto deadline = started + env.wsl_timeout;
  announce_step(env, "waiting for wsl.exe");
  auto list = list_task.wait_until(deadline);
  auto version = version_task.wait_until(deadline);
  Result<wsl::WslReply> timed_out =
      make_error(ErrorCode::timeout, std::string("wsl.exe did not answer in time") + wsl::k_fix_separator +
                                         "run 'wsl --shutdown' and try again (the WSL service may be hung)");
  std::optional<Result<wsl::WslReply>> status;
  const bool inbox = version && *version && (*version)->failure.kind == wsl::WslFailureKind::cli_too_old;
  if (inbox && !g.host.wsl_default_version) status = env.wsl->status();
  g.wsl = wsl_facts_from(list ? *list : timed_out, version ? *version : timed_out, status, g.host.wsl_default_version);
  g.wsl_checks = {check_wsl_installed(g.wsl), check_wsl_version(g.wsl), check_wsl_default_version(g.wsl)};
  CheckResult distro_check = check_wsl_distro(g.wsl, env.distro, g.distro);
  g.wsl_checks.push_back(distro_check);
  if (g.distro.empty()) {
    g.linux_side.error = "no usable distribution (" + distro_check.summary + ")";
    return;
  }
  announce_step(env, "waiting for the agent in " + g.distro + " (TensorFlow probe)");
  JoinedTask<LinuxSide> side("the agent in " + g.distro, [&env, distro = g.distro] { return env.linux_side(distro); });
  g.linux_side =
      await_linux_side(side, Clock::now() + env.agent_timeout,
                       "the agent did not answer within " + std::to_string(env.agent_timeout.count() / 1000) + " s");
}

// Every source on its own thread, side by side; all of them have ended when this returns.
MachineFacts gather(const DoctorEnvironment& env, Clock::time_point started) {
  MachineFacts g;
  const bool through_wsl = env.is_windows && env.wsl;
  JoinedTask<host::HostFacts> host_task("reading the host facts", env.host_facts);
  JoinedTask<WslconfigFacts> wslconfig_task("reading .wslconfig", env.wslconfig);
  std::optional<WslTask> list_task, version_task;
  std::optional<JoinedTask<LinuxSide>> native_side;
  if (through_wsl) {
    list_task.emplace("wsl.exe -l -v", [w = env.wsl] { return w->list_verbose(); });
    version_task.emplace("wsl.exe --version", [w = env.wsl] { return w->version(); });
  } else {
    // Native Linux: the Linux side needs no distro name; start it now.
    native_side.emplace("the Linux side", [&env] { return env.linux_side(""); });
  }

  announce_step(env, "reading the host facts");
  if (auto host = host_task.wait_until(started + env.host_timeout)) {
    g.host = std::move(*host);
    g.host_in_time = true;
  } else {
    g.host.is_windows = env.is_windows;
    g.host.notes.push_back("host facts timed out");
  }
  if (auto w = wslconfig_task.wait_until(started + env.host_timeout)) g.wslconfig = std::move(*w);

  if (through_wsl) {
    gather_windows_side(env, started, *list_task, *version_task, g);
  } else {
    g.wsl_checks = skipped_wsl_checks();
    announce_step(env, "waiting for the agent (TensorFlow probe)");
    g.linux_side =
        await_linux_side(*native_side, started + env.agent_timeout, "the Linux checks did not finish in time");
  }
  return g;
}

}  // namespace

MachineFacts gather_machine_facts(const DoctorEnvironment& env) { return gather(env, Clock::now()); }

namespace {

nlohmann::json facts_json(const MachineFacts& g, int wsl_starts, std::chrono::milliseconds elapsed) {
  nlohmann::json distros = nlohmann::json::array();
  for (const auto& d : g.wsl.distros)
    distros.push_back({{"name", d.name},
                       {"state", d.state.value_or("")},
                       {"version", d.version.value_or(0)},
                       {"default", d.is_default}});
  return {{"host", host_json(g.host)},
          {"wsl",
           {{"distros", distros},
            {"wsl_version", g.wsl.wsl_version.value_or("")},
            {"kernel_version", g.wsl.kernel_version.value_or("")},
            {"chosen_distro", g.distro}}},
          {"agent",
           {{"link", g.linux_side.description},
            {"error", g.linux_side.error},
            {"info", g.linux_side.info},
            {"installed_version", g.linux_side.installed_version}}},
          // What the agent observed, as the judge read it (null without an agent).
          {"linux", g.linux_side.facts ? agent_api::to_json(*g.linux_side.facts) : nlohmann::json()},
          {"wslconfig", {{"path", g.wslconfig.path}, {"present", g.wslconfig.present}}},
          {"wsl_starts", wsl_starts},
          {"elapsed_ms", elapsed.count()}};
}

}  // namespace

DoctorResult run_doctor(const DoctorEnvironment& env) {
  const auto started = Clock::now();
  const MachineFacts g = gather(env, started);

  std::vector<CheckResult> checks = host::assess_host(g.host, env.host_policy);
  if (!g.host_in_time) {
    for (auto& c : checks)
      if (const CheckRow* row = find_check_row(c.id); row && row->source == CheckSource::host)
        c.status = CheckStatus::skip, c.summary = "unknown: reading the host facts timed out";
  }
  std::optional<std::uint64_t> configured_memory;
  for (auto& c : check_wslconfig(g.wslconfig, g.host.ram_bytes, configured_memory)) checks.push_back(std::move(c));
  for (const auto& c : g.wsl_checks) checks.push_back(c);

  const LinuxSide& side = g.linux_side;
  checks.push_back(check_agent(side.link, side.description, side.error, env.is_windows && env.wsl, side.fix));
  checks.push_back(check_wslconfig_overrides(g.wslconfig, g.host.wsl_policies));
  const NetworkingMode networking = effective_networking_mode(g.wslconfig, g.host.wsl_policies);
  checks.push_back(check_localhost_forwarding(side.link, side.localhost_problem, side.forwarded,
                                              {networking.mode, networking.source}));
  if (side.facts) {
    // On Windows the judge is told what .wslconfig asks (the distro cannot see it), so mem.effective
    // says whether memory= is in effect; natively there is no .wslconfig, and it says what the
    // machine has. data.location: the paths the doctor was given (--data), judged here; the agent
    // is given none.
    std::optional<judge::WindowsMemory> windows_memory;
    if (env.is_windows) windows_memory = judge::WindowsMemory{configured_memory, g.host.ram_bytes, g.wslconfig.path};
    for (auto& c : judge::assess(*side.facts, env.linux_policy, windows_memory).checks) {
      if (c.id == checked_id("data.location") && !env.data_paths.empty()) continue;
      checks.push_back(std::move(c));
    }
  }
  if (!env.data_paths.empty()) checks.push_back(check_data_paths(env.data_paths));
  checks.push_back(check_driver_parity(g.host, side.gpu));
  if (env.route_checks) {
    if (env.progress) env.progress("the container route (tfwsl-agent provision --check)");
    for (auto& c : env.route_checks()) checks.push_back(std::move(c));
  }

  DoctorResult result;
  const std::string why = side.link == AgentLink::none ? "unknown: the agent could not be reached (" + side.error + ")"
                                                       : "not reported by the agent";
  result.report = complete_report(std::move(checks), why);
  fold_report(result.report, check_dependencies(), {platform_windows(env.is_windows)});
  result.wsl_starts = env.wsl ? env.wsl->starts() : 0;
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  result.facts = facts_json(g, result.wsl_starts, result.elapsed);
  result.machine = g;
  return result;
}

}  // namespace tfwsl::doctor
