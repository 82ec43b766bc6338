#pragma once
// The agent on this machine, started as a plain child (the native Linux build of tfwsl): the same
// handshake, token, challenge and stdio frames as through wsl.exe, only without wsl.exe. The binary
// is found by agent_locator.hpp and is the only one there is: one of another version is an error to fix.

#include <string>

#include "win/agent_client/agent_host.hpp"

namespace tfwsl::agent_client {

class LocalAgentHost final : public AgentHost {
 public:
  LocalAgentHost(ChildLauncher& launcher, std::string agent_binary);
  std::string where() const override { return "on this machine"; }
  bool forwards_localhost() const override { return false; }
  Result<std::unique_ptr<ChildChannel>> start_agent(const std::vector<std::string>& args) override;
  Result<std::unique_ptr<ChildChannel>> start_shipped_agent(const std::vector<std::string>& args,
                                                            ShippedRun how) override;
  std::string shipped_agent_path() const override { return {}; }

 private:
  ChildLauncher& m_launcher;
  std::string m_agent_binary;
};

}  // namespace tfwsl::agent_client
