#include "win/tasks/agent_connection.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "common/text/utf_convert.hpp"
#include "win/agent_client/agent_locator.hpp"
#include "win/agent_client/local_agent_host.hpp"
#include "win/agent_client/wsl_agent_host.hpp"
#include "win/platform/local_agent_binary.hpp"

namespace tfwsl::cli {

AgentConnection::AgentConnection(AgentConnectionSettings settings, Machine& machine)
    : m_settings(std::move(settings)),
      m_wsl(machine.wsl),
      m_launcher(machine.agent_launcher),
      m_loopback(machine.agent_loopback) {}

Result<std::string> AgentConnection::local_agent_binary() const {
  TFWSL_TRY(found, find_local_agent_binary(m_settings.agent));
  return path_to_utf8(found);
}

Result<std::unique_ptr<agent_client::AgentSession>> AgentConnection::connect(const std::vector<std::string>& roots) {
  agent_client::BridgeOptions options;
  options.expected_version = TFWSL_VERSION;
  options.roots = roots;
  if (!m_settings.windows) {
    TFWSL_TRY(binary, local_agent_binary());
    agent_client::LocalAgentHost host(m_launcher, binary);
    return agent_client::connect_agent(host, m_loopback, options);
  }
  agent_client::WslAgentSettings settings;
  settings.distro = m_settings.distro;
  if (auto path = wsl::process_environment_variable(agent_client::k_agent_path_env)) settings.agent_path = *path;
  if (auto shipped = local_agent_binary())
    settings.shipped_agent = *shipped;
  else
    spdlog::info("{}", shipped.error().describe());
  agent_client::WslAgentHost host(m_wsl, m_launcher, settings);
  return agent_client::connect_agent(host, m_loopback, options);
}

}  // namespace tfwsl::cli
