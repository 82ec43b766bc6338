#include "win/tasks/machine_access.hpp"

#include <spdlog/spdlog.h>

#include "common/text/utf_convert.hpp"
#include "common/wslconfig/wslconfig_location.hpp"
#include "win/agent_client/agent_locator.hpp"
#include "win/agent_client/local_agent_host.hpp"
#include "win/agent_client/wsl_agent_host.hpp"
#include "win/doctor/agent_side.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/platform/own_executable.hpp"
#include "win/tasks/wslconfig_file.hpp"

namespace tfwsl::cli {
namespace {

// The agent is not told the profile: it reports facts, and the CLI judges or compares them with
// the profile on this side.
agent_client::BridgeOptions bridge_options() {
  agent_client::BridgeOptions options;
  options.expected_version = TFWSL_VERSION;
  return options;
}

}  // namespace

doctor::WslconfigFacts read_wslconfig() {
  doctor::WslconfigFacts facts;
  auto located = wslconfig::windows_wslconfig_path(wsl::process_environment_variable);
  if (!located) return facts;
  const std::string path = *located;
  facts.path = path;
  // As `tfwsl wslconfig` reads it: a regular file (or a link to one) of at most a megabyte; a
  // folder, a FIFO or a device is named, never read (a FIFO would hang the doctor).
  auto file = read_wslconfig_file(path);
  if (!file) {
    facts.read_error = file.error().message;
    return facts;
  }
  if (!file->exists) return facts;
  facts.present = true;
  facts.bytes = std::move(file->bytes);
  facts.parsed_at_the_edge();
  return facts;
}

MachineAccess::MachineAccess(std::string agent_option, Machine& machine)
    : m_runner(machine.processes),
      m_registry(machine.registry),
      m_system(machine.host.system()),
      m_wsl(machine.wsl),
      m_launcher(machine.agent_launcher),
      m_loopback(machine.agent_loopback),
      m_agent_option(std::move(agent_option)) {}

// Windows: the agent in `distro` through wsl.exe; the one found by locate_agent runs (in place,
// installing nothing) when the distro has no usable agent of its own.
doctor::LinuxSide MachineAccess::wsl_linux_side(const std::string& distro) {
  agent_client::WslAgentSettings settings;
  settings.distro = distro;
  if (auto path = wsl::process_environment_variable(agent_client::k_agent_path_env)) settings.agent_path = *path;
  auto shipped = find_local_agent_binary(m_agent_option);
  if (shipped)
    settings.shipped_agent = path_to_utf8(*shipped);
  else
    spdlog::info("{}", shipped.error().describe());
  agent_client::WslAgentHost host(m_wsl, m_launcher, settings);
  auto side = doctor::linux_side_from_agent(host, m_loopback, bridge_options());
  // No agent reached and none beside tfwsl.exe: that is the fix, whatever the distro's own agent said.
  if (side.link == agent_client::AgentLink::none && !shipped)
    side.fix = agent_client::missing_agent_fix(running_from_build_tree());
  return side;
}

// Native Linux: the agent found by locate_agent, started as a child over the same bridge.
doctor::LinuxSide MachineAccess::local_linux_side() {
  auto agent = find_local_agent_binary(m_agent_option);
  if (!agent) {
    doctor::LinuxSide side;
    side.error = agent.error().describe();
    if (m_agent_option.empty()) side.fix = agent_client::missing_agent_fix(running_from_build_tree());
    return side;
  }
  agent_client::LocalAgentHost host(m_launcher, path_to_utf8(*agent));
  return doctor::linux_side_from_agent(host, m_loopback, bridge_options());
}

doctor::DoctorEnvironment MachineAccess::environment(const std::string& distro) {
  doctor::DoctorEnvironment env;
  env.is_windows = m_system.is_windows;
  env.distro = distro;
  env.host_facts = [this] {
    host::HostProbeSettings settings;
    settings.nvidia_smi = host::nvidia_smi_candidates(wsl::process_environment_variable);
    return host::gather_host_facts(m_system, m_registry, m_runner, settings);
  };
  env.wslconfig = read_wslconfig;
  if (m_system.is_windows) {
    env.wsl = &m_wsl;
    env.linux_side = [this](const std::string& name) { return wsl_linux_side(name); };
  } else {
    env.linux_side = [this](const std::string&) { return local_linux_side(); };
  }
  return env;
}

}  // namespace tfwsl::cli
