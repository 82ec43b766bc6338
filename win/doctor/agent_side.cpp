#include "win/doctor/agent_side.hpp"

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/linux_facts.hpp"

namespace tfwsl::doctor {

LinuxSide linux_side_from_agent(agent_client::AgentHost& host, agent_client::LoopbackConnector& loopback,
                                const agent_client::BridgeOptions& options, const AgentSideTimeouts& timeouts) {
  LinuxSide side;
  side.forwarded = host.forwards_localhost();
  auto session = agent_client::connect_agent(host, loopback, options);
  if (!session) {
    side.error = session.error().describe();
    return side;
  }
  auto& s = **session;
  side.description = s.describe();
  side.link = s.link();
  side.localhost_problem = s.localhost_problem();
  side.installed_version = s.installed_version();
  if (auto info = s.get(agent_api::route::k_info, timeouts.info); info && info->status == 200) side.info = info->body;
  auto reply = s.get(agent_api::route::k_facts, timeouts.facts);
  if (!reply || reply->status != 200) {
    side.link = AgentLink::none;
    side.error = reply ? "GET /v1/facts answered HTTP " + std::to_string(reply->status) +
                             (reply->status == 404 ? " (an agent older than API 2: use the tfwsl-agent shipped with "
                                                     "this tfwsl, or name it with --agent)"
                                                   : "")
                       : "tfwsl-agent " + host.where() + " did not answer GET /v1/facts: " + reply.error().describe();
    return side;
  }
  auto facts = agent_api::parse_linux_facts(reply->body);
  if (!facts) {
    side.link = AgentLink::none;
    side.error = "the agent's /v1/facts could not be read: " + facts.error().message;
    return side;
  }
  side.gpu = facts->gpu;
  side.facts = std::move(*facts);
  return side;
}

}  // namespace tfwsl::doctor
