#include "win/tasks/push_setup.hpp"

#include "win/push/session_push_agent.hpp"
#include "win/tasks/default_distro.hpp"

namespace tfwsl::cli {

namespace {

// The host's free space as push asks for it, through the machine's host port.
class HostFreeSpace final : public push::FreeSpace {
 public:
  explicit HostFreeSpace(HostPort& host) : m_host(host) {}
  Result<std::uint64_t> free_bytes(const std::string& path) const override { return m_host.free_bytes(path); }

 private:
  HostPort& m_host;
};

}  // namespace

PushSetup::PushSetup(AgentConnectionSettings settings, Machine& machine)
    : m_connection(settings, machine), m_free_space(std::make_unique<HostFreeSpace>(machine.host)) {
  m_env.connect = [this](const std::vector<std::string>& roots) -> Result<std::unique_ptr<push::PushAgent>> {
    TFWSL_TRY(session, m_connection.connect(roots));
    return push::make_session_push_agent(std::move(session));
  };
  if (settings.windows) {
    m_env.registry = &machine.registry;
    m_env.host_free = m_free_space.get();
    m_env.default_distro = [this] { return default_distro_name(m_connection.wsl()); };
  }
}

}  // namespace tfwsl::cli
