#include "common/doctor/doctor.hpp"

#include <future>
#include <memory>
#include <thread>

#include <spdlog/spdlog.h>

#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"

namespace tfwsl::doctor {
namespace {

// Runs fn on its own thread; nothing when it does not finish in time (the thread is left to end
// on its own: a hung wsl.exe has its own timeout in the process runner).
template <class T>
std::shared_future<T> start(std::function<T()> fn) {
  auto task = std::make_shared<std::packaged_task<T()>>(std::move(fn));
  std::shared_future<T> future = task->get_future().share();
  std::thread([task] { (*task)(); }).detach();
  return future;
}

template <class T>
std::optional<T> wait(const std::shared_future<T>& f, std::chrono::steady_clock::time_point deadline) {
  if (f.wait_until(deadline) != std::future_status::ready) return std::nullopt;
  return f.get();
}

nlohmann::json host_json(const host::HostFacts& h) {
  nlohmann::json j;
  j["is_windows"] = h.is_windows;
  if (h.windows_build) j["windows_build"] = *h.windows_build;
  if (h.windows_ubr) j["windows_ubr"] = *h.windows_ubr;
  if (h.ram_bytes) j["ram_bytes"] = *h.ram_bytes;
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : h.gpus)
    gpus.push_back({{"name", g.name}, {"driver_version", g.driver_version}, {"windows_driver_version", g.windows_driver_version},
                    {"driver_model", host::to_string(g.driver_model)}, {"source", g.source}});
  j["gpus"] = gpus;
  if (h.tdr_delay_s) j["tdr_delay_s"] = *h.tdr_delay_s;
  if (h.fast_startup) j["fast_startup"] = *h.fast_startup;
  j["notes"] = h.notes;
  return j;
}

}  // namespace

WslFacts wsl_facts_from(const Result<wsl::WslReply>& list, const Result<wsl::WslReply>& version,
                        const std::optional<Result<wsl::WslReply>>& status, std::optional<int> registry_default_version) {
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

DoctorResult run_doctor(const DoctorEnvironment& env) {
  const auto started = std::chrono::steady_clock::now();
  DoctorResult result;
  std::vector<CheckResult> checks;

  auto host_future = start<host::HostFacts>(env.host_facts);
  auto wslconfig_future = start<WslconfigFacts>(env.wslconfig);

  // wsl.exe: -l -v and --version side by side; --status only when --version is not understood (an
  // inbox wsl.exe) AND the registry lacks the default version: three starts at most with the agent.
  std::shared_future<Result<wsl::WslReply>> list_future, version_future;
  if (env.is_windows && env.wsl) {
    list_future = start<Result<wsl::WslReply>>([w = env.wsl] { return w->list_verbose(); });
    version_future = start<Result<wsl::WslReply>>([w = env.wsl] { return w->version(); });
  }
  // Native Linux: the Linux side needs no distro name; start it now.
  std::shared_future<LinuxSide> linux_future;
  if (!env.is_windows) linux_future = start<LinuxSide>([&env] { return env.linux_side(""); });

  auto host = wait(host_future, started + env.host_timeout);
  host::HostFacts host_facts;
  if (host) host_facts = *host;
  else host_facts.is_windows = env.is_windows, host_facts.notes.push_back("host facts timed out");
  for (auto& c : host::assess_host(host_facts, env.host_policy)) checks.push_back(std::move(c));
  if (!host) {
    for (auto& c : checks)
      if (c.id.rfind("host.", 0) == 0) c.status = CheckStatus::skip, c.summary = "unknown: reading the host facts timed out";
  }

  WslconfigFacts wslconfig;
  if (auto w = wait(wslconfig_future, started + env.host_timeout)) wslconfig = *w;
  std::optional<std::uint64_t> configured_memory;
  for (auto& c : check_wslconfig(wslconfig, host_facts.ram_bytes, configured_memory)) checks.push_back(std::move(c));

  std::string distro;
  LinuxSide linux_side;
  WslFacts wsl;
  if (env.is_windows && env.wsl) {
    auto deadline = started + env.wsl_timeout;
    auto list = wait(list_future, deadline);
    auto version = wait(version_future, deadline);
    Result<wsl::WslReply> timed_out = make_error(ErrorCode::timeout, "wsl.exe did not answer in time");
    std::optional<Result<wsl::WslReply>> status;
    const bool inbox = version && *version && (*version)->failure.kind == wsl::WslFailureKind::cli_too_old;
    if (inbox && !host_facts.wsl_default_version) status = env.wsl->status();
    wsl = wsl_facts_from(list ? *list : timed_out, version ? *version : timed_out, status, host_facts.wsl_default_version);
    checks.push_back(check_wsl_installed(wsl));
    checks.push_back(check_wsl_version(wsl));
    checks.push_back(check_wsl_default_version(wsl));
    CheckResult distro_check = check_wsl_distro(wsl, env.distro, distro);
    checks.push_back(distro_check);
    if (!distro.empty()) {
      auto side = start<LinuxSide>([&env, distro] { return env.linux_side(distro); });
      if (auto s = wait(side, std::chrono::steady_clock::now() + env.agent_timeout)) linux_side = *s;
      else linux_side.error = "the agent did not answer within " + std::to_string(env.agent_timeout.count() / 1000) + " s";
    } else {
      linux_side.error = "no usable distribution (" + distro_check.summary + ")";
    }
  } else {
    for (const char* id : {"wsl.installed", "wsl.version", "wsl.default-version", "wsl.distro"}) {
      CheckResult r;
      r.id = id;
      r.status = CheckStatus::skip;
      r.summary = "not on Windows: wsl.exe checks need tfwsl.exe on the Windows side";
      checks.push_back(r);
    }
    if (auto s = wait(linux_future, started + env.agent_timeout)) linux_side = *s;
    else linux_side.error = "the Linux checks did not finish in time";
  }

  checks.push_back(check_agent(linux_side.link, linux_side.description, linux_side.error));
  checks.push_back(check_localhost_forwarding(linux_side.link, linux_side.localhost_problem, linux_side.forwarded));
  std::optional<std::uint64_t> mem_total_kb;
  for (const auto& c : linux_side.checks.checks) {
    if (c.id == "mem.effective") {
      mem_total_kb = mem_total_kb_from(c);
      continue;  // ours replaces it: the agent cannot see .wslconfig
    }
    checks.push_back(c);
  }
  if (linux_side.link != AgentLink::none) {
    checks.push_back(check_mem_effective(configured_memory, mem_total_kb, host_facts.ram_bytes, wslconfig.path));
  }
  checks.push_back(check_driver_parity(host_facts, linux_side.gpu));

  std::string why = linux_side.link == AgentLink::none ? "unknown: the agent could not be reached (" + linux_side.error + ")"
                                                       : "not reported by the agent";
  result.report = complete_report(std::move(checks), why);
  result.wsl_starts = env.wsl ? env.wsl->starts() : 0;
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  nlohmann::json distros = nlohmann::json::array();
  for (const auto& d : wsl.distros) distros.push_back({{"name", d.name}, {"state", d.state.value_or("")}, {"version", d.version.value_or(0)}, {"default", d.is_default}});
  result.facts = {{"host", host_json(host_facts)},
                  {"wsl", {{"distros", distros}, {"wsl_version", wsl.wsl_version.value_or("")},
                           {"kernel_version", wsl.kernel_version.value_or("")}, {"chosen_distro", distro}}},
                  {"agent", {{"link", linux_side.description}, {"error", linux_side.error}, {"info", linux_side.info}}},
                  {"wslconfig", {{"path", wslconfig.path}, {"present", wslconfig.present}}},
                  {"wsl_starts", result.wsl_starts},
                  {"elapsed_ms", result.elapsed.count()}};
  return result;
}

}  // namespace tfwsl::doctor
