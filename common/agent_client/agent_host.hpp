#pragma once
// Where the agent runs, the bridge's one port to it (docs/agent-api.md, "Start-up"):
//   - WslAgentHost: inside a WSL distro through wsl.exe (tfwsl.exe on Windows), which can install the
//     tfwsl-agent shipped next to tfwsl.exe into the distro;
//   - LocalAgentHost: on this machine as a plain child (the native Linux build), which installs nothing.
// Both hand back a ChildChannel: the handshake, the token and the stdio frames go over it the same way,
// so the native Linux doctor exercises the real bridge. Tests give the hosts a fake ChildLauncher.

#include <memory>
#include <string>
#include <vector>

#include "common/agent_client/child_channel.hpp"
#include "common/core/error.hpp"

namespace tfwsl::agent_client {

class AgentHost {
 public:
  virtual ~AgentHost() = default;
  // Where the agent runs, for messages: "in Ubuntu-22.04", "in the default WSL distribution", "on this machine".
  virtual std::string where() const = 0;
  // True when 127.0.0.1 reaches the agent through WSL's localhost forwarding (a Windows host).
  virtual bool forwards_localhost() const = 0;
  // Starts the agent with `args` (what follows the program name), with pipes.
  virtual Result<std::unique_ptr<ChildChannel>> start_agent(const std::vector<std::string>& args) = 0;
  // Puts the shipped agent where start_agent finds it. An Error naming the fix where it cannot.
  virtual Status install_agent() = 0;
};

}  // namespace tfwsl::agent_client
