#pragma once
// The agent inside a WSL distro, reached through wsl.exe (tfwsl.exe on Windows):
//   start:   wsl.exe -d D --exec <agent_path> <args...>, a long-lived child (closing its stdin ends it);
//   install: the tfwsl-agent shipped next to tfwsl.exe, copied by the distro itself as root:
//            wsl.exe -d D -u root --exec install -D -m 0755 <distro view of its Windows path> <agent_path>.
// The distro view needs the distro's automount root, which /etc/wsl.conf can move (root = /windir/):
// it is asked with `wslpath -u '<drive>:\'` (wslpath ships in every WSL distro and applies wsl.conf
// itself; no agent route is needed, the agent may be the thing missing). One more wsl.exe start,
// only when installing; if wslpath gives no usable answer, WSL's default /mnt/ is taken.

#include <string>

#include "common/agent_client/agent_host.hpp"
#include "common/wsl/wsl_client.hpp"

namespace tfwsl::agent_client {

// Where the agent lives inside the distro unless TFWSL_AGENT_PATH says otherwise.
inline constexpr const char* k_default_agent_path = "/usr/local/lib/tfwsl/tfwsl-agent";
inline constexpr const char* k_agent_path_env = "TFWSL_AGENT_PATH";

struct WslAgentSettings {
  std::string distro;                             // empty: the default distribution
  std::string agent_path = k_default_agent_path;  // Linux path inside the distro
  std::string shipped_agent;                      // Windows path of the agent to install; empty: none
};

class WslAgentHost final : public AgentHost {
 public:
  WslAgentHost(wsl::WslClient& wsl, ChildLauncher& launcher, WslAgentSettings settings);
  std::string where() const override;
  bool forwards_localhost() const override { return true; }
  Result<std::unique_ptr<ChildChannel>> start_agent(const std::vector<std::string>& args) override;
  Status install_agent() override;

 private:
  std::string automount_root(char drive);

  wsl::WslClient& m_wsl;
  ChildLauncher& m_launcher;
  WslAgentSettings m_settings;
};

}  // namespace tfwsl::agent_client
