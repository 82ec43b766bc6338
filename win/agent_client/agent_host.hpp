#pragma once
// Where the agent runs, the bridge's one port to it (docs/agent-api.md, "Start-up"):
//   - WslAgentHost: inside a WSL distro through wsl.exe (tfwsl.exe on Windows), which can also run
//     the tfwsl-agent shipped next to tfwsl.exe without installing it;
//   - LocalAgentHost: on this machine as a plain child (the native Linux build), which has nothing
//     else to run.
// Neither installs or writes anything: a doctor run leaves the machine as it was. Both hand back a
// ChildChannel: the handshake, the token and the stdio frames go over it the same way, so the native
// Linux doctor exercises the real bridge. Tests give the hosts a fake ChildLauncher.

#include <memory>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/agent_client/child_channel.hpp"

namespace tfwsl::agent_client {

// How the shipped agent is run: from where it lies, or from a temporary copy that the run itself
// removes when it ends (for a Windows drive mounted noexec).
enum class ShippedRun { in_place, temp_copy };

class AgentHost {
 public:
  virtual ~AgentHost() = default;
  // Where the agent runs, for messages: "in Ubuntu-22.04", "in the default WSL distribution", "on this machine".
  virtual std::string where() const = 0;
  // True when 127.0.0.1 reaches the agent through WSL's localhost forwarding (a Windows host).
  virtual bool forwards_localhost() const = 0;
  // Starts the agent at its installed place with `args` (what follows the program name), with pipes.
  virtual Result<std::unique_ptr<ChildChannel>> start_agent(const std::vector<std::string>& args) = 0;
  // Starts the agent shipped with tfwsl, installing nothing. An Error naming the fix where there is
  // no shipped agent to run.
  virtual Result<std::unique_ptr<ChildChannel>> start_shipped_agent(const std::vector<std::string>& args,
                                                                    ShippedRun how) = 0;
  // The shipped agent as the agent's side sees it, for messages ("/mnt/c/tfwsl/tfwsl-agent"); empty
  // before start_shipped_agent has been asked.
  virtual std::string shipped_agent_path() const = 0;
};

}  // namespace tfwsl::agent_client
