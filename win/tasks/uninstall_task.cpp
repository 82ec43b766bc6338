#include "win/tasks/uninstall_task.hpp"

#include "common/parse/wsl_list_parser.hpp"
#include "win/agent_client/wsl_agent_host.hpp"
#include "win/platform/host_platform.hpp"
#include "win/tasks/uninstall_wslconfig.hpp"
#include "win/tasks/wslconfig_account.hpp"

namespace tfwsl::cli {
namespace {

using agent_service::Leftover;

// A place uninstall could not look at: listed, so the user knows it was not covered.
Leftover not_looked_at(const std::string& where, const std::string& what, const std::string& why) {
  Leftover l;
  l.what = what;
  l.where = where;
  l.remove = false;
  l.why = "not looked at: " + why;
  return l;
}

std::vector<std::string> listed_distros(wsl::WslClient& wsl, std::string& problem) {
  std::vector<std::string> out;
  auto list = wsl.list_verbose();
  if (!list)
    problem = list.error().describe();
  else if (list->failure.kind != wsl::WslFailureKind::none)
    problem = wsl::to_error(list->failure).describe();
  if (!problem.empty()) return out;
  for (const auto& d : parse::parse_wsl_list(list->text).distros) out.push_back(d.name);
  return out;
}

}  // namespace

UninstallTask::UninstallTask(UninstallSettings settings, const Console& console, Machine& machine)
    : m_settings(std::move(settings)),
      m_console(console),
      m_windows(machine.host.system().is_windows),
      m_machine(machine),
      m_runner(machine.processes),
      m_wsl(machine.wsl),
      m_agent_path(wsl::process_environment_variable(agent_client::k_agent_path_env)
                       .value_or(agent_client::k_default_agent_path)) {}

UninstallReport UninstallTask::list() {
  UninstallReport report;
  list_wslconfig(report);
  if (!m_windows) {
    m_shells.push_back(std::make_unique<agent_service::LocalDistroShell>(m_runner));
    list_distro(report, *m_shells.back());
    return report;
  }
  std::string problem;
  auto distros = m_settings.distros.empty() ? listed_distros(m_wsl, problem) : m_settings.distros;
  if (!problem.empty()) report.entries.push_back({not_looked_at("in WSL", "the distributions", problem), {}, false});
  for (const auto& distro : distros) {
    m_shells.push_back(std::make_unique<agent_service::WslDistroShell>(m_wsl, distro));
    list_distro(report, *m_shells.back());
  }
  return report;
}

void UninstallTask::list_wslconfig(UninstallReport& report) {
  std::string path = m_settings.wslconfig;
  if (path.empty()) {
    const wslconfig::EnvironmentLookup getenv = [this](const std::string& name) -> std::optional<std::string> {
      auto value = m_console.environment ? m_console.environment(name) : std::nullopt;
      return value && !value->empty() ? value : std::nullopt;
    };
    auto located = default_wslconfig_path(getenv, m_machine);
    if (!located) {
      // Nothing to say on a Linux machine that has no .wslconfig; on Windows the reason matters.
      if (m_windows)
        report.entries.push_back(
            {not_looked_at("on Windows", ".wslconfig's backups", located.error().describe()), {}, false});
      return;
    }
    path = *located;
  }
  for (auto& item : wslconfig_leftovers(path)) report.entries.push_back({std::move(item), {}, false});
}

void UninstallTask::list_distro(UninstallReport& report, agent_service::DistroShell& shell) {
  auto facts = agent_service::read_distro_facts(shell, m_agent_path, m_settings.state_dir);
  if (!facts) {
    report.entries.push_back(
        {not_looked_at(shell.where(), "tfwsl's files there", facts.error().describe()), {}, false});
    return;
  }
  for (auto& item : agent_service::decide_distro_leftovers(*facts))
    report.entries.push_back({std::move(item), {}, false});
}

agent_service::DistroShell* UninstallTask::shell_for(const std::string& where) {
  for (auto& shell : m_shells)
    if (shell->where() == where) return shell.get();
  return nullptr;
}

void UninstallTask::remove(UninstallReport& report, const std::function<void(const UninstallEntry&)>& on_each) {
  report.applied = true;
  for (auto& entry : report.entries) {
    if (!entry.item.remove) continue;
    Status done = {};
    if (entry.item.run_as == agent_service::LeftoverRunAs::here) {
      done = remove_host_leftover(entry.item);
    } else if (auto* shell = shell_for(entry.item.where)) {
      done = agent_service::remove_distro_leftover(*shell, entry.item);
    } else {
      done = make_error(ErrorCode::internal, "no shell for " + entry.item.where);
    }
    if (done)
      entry.done = true;
    else
      entry.error = done.error().describe();
    if (on_each) on_each(entry);
  }
}

}  // namespace tfwsl::cli
