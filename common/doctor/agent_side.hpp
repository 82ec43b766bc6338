#pragma once
// The doctor's Linux side from the agent: connects through the bridge (agent_bridge.hpp), then asks
// /v1/info, /v1/checks and /v1/gpu and decodes them into a LinuxSide. The same on Windows (the
// agent in the distro through wsl.exe) and on the native Linux build (the agent as a child).

#include <chrono>

#include <nlohmann/json.hpp>

#include "common/agent_client/agent_bridge.hpp"
#include "common/doctor/doctor.hpp"

namespace tfwsl::doctor {

struct AgentSideTimeouts {
  std::chrono::milliseconds info{std::chrono::seconds(30)};
  std::chrono::milliseconds checks{std::chrono::seconds(240)};  // the TensorFlow probe imports TF
  std::chrono::milliseconds gpu{std::chrono::seconds(240)};
};

LinuxSide linux_side_from_agent(agent_client::AgentHost& host, agent_client::LoopbackConnector& loopback,
                                const agent_client::BridgeOptions& options, const AgentSideTimeouts& timeouts = {});

// The checks of a /v1/checks answer ({"checks":[...]}); entries it cannot read are logged and left out.
Report decode_agent_checks(const nlohmann::json& body);

}  // namespace tfwsl::doctor
