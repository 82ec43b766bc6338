#pragma once
// The doctor's Linux side from the agent: connects through the bridge (agent_bridge.hpp), then asks
// /v1/info and /v1/facts and decodes them into a LinuxSide. The agent only observes: the doctor
// judges the facts itself (common/judge) with the policy of the profile its user named. The same on
// Windows (the agent in the distro through wsl.exe) and on the native Linux build (the agent as a
// child).

#include <chrono>

#include "win/agent_client/agent_bridge.hpp"
#include "win/doctor/doctor.hpp"

namespace tfwsl::doctor {

struct AgentSideTimeouts {
  std::chrono::milliseconds info{std::chrono::seconds(30)};
  std::chrono::milliseconds facts{std::chrono::seconds(240)};  // the TensorFlow probe imports TF
};

LinuxSide linux_side_from_agent(agent_client::AgentHost& host, agent_client::LoopbackConnector& loopback,
                                const agent_client::BridgeOptions& options, const AgentSideTimeouts& timeouts = {});

}  // namespace tfwsl::doctor
