#include "win/tasks/push_setup.hpp"

#include "win/platform/host_platform.hpp"
#include "win/push/session_push_agent.hpp"
#include "win/tasks/default_distro.hpp"

namespace tfwsl::cli {

PushSetup::PushSetup(AgentConnectionSettings settings, const MachinePorts& machine)
    : m_connection(settings), m_registry(make_system_registry()), m_free_space(push::make_host_free_space(machine)) {
  m_env.connect = [this](const std::vector<std::string>& roots) -> Result<std::unique_ptr<push::PushAgent>> {
    TFWSL_TRY(session, m_connection.connect(roots));
    return push::make_session_push_agent(std::move(session));
  };
  if (settings.windows) {
    m_env.registry = m_registry.get();
    m_env.host_free = m_free_space.get();
    m_env.default_distro = [this] { return default_distro_name(m_connection.wsl()); };
  }
}

}  // namespace tfwsl::cli
