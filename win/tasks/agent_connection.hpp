#pragma once
// Starting tfwsl-agent for a command other than the doctor (data push, agent status): the same
// bridge and the same choice of binary as `tfwsl doctor` (docs/doctor.md, "How it works"): in the
// distro through wsl.exe on Windows (the installed agent, else the one shipped next to tfwsl.exe,
// installing nothing), a child on the native Linux build. Each connect() is one agent process.

#include <memory>
#include <string>
#include <vector>

#include "common/process/process_runner.hpp"
#include "win/agent_client/agent_bridge.hpp"
#include "win/agent_client/child_channel.hpp"
#include "win/tasks/machine.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

struct AgentConnectionSettings {
  std::string distro;   // empty: WSL's default distribution
  std::string agent;    // --agent PATH (agent_locator.hpp)
  bool windows = true;  // through wsl.exe; false: a child on this machine
};

class AgentConnection {
 public:
  AgentConnection(AgentConnectionSettings settings, Machine& machine);
  // An agent whose dataset jobs may use `roots` (serve --root each).
  Result<std::unique_ptr<agent_client::AgentSession>> connect(const std::vector<std::string>& roots);
  // The tfwsl-agent binary that would be used on this side (--agent, TFWSL_AGENT, beside tfwsl, the build tree).
  Result<std::string> local_agent_binary() const;
  wsl::WslClient& wsl() { return m_wsl; }
  const AgentConnectionSettings& settings() const { return m_settings; }

 private:
  AgentConnectionSettings m_settings;
  wsl::WslClient& m_wsl;
  agent_client::ChildLauncher& m_launcher;
  agent_client::LoopbackConnector& m_loopback;
};

}  // namespace tfwsl::cli
