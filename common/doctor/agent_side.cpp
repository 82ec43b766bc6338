#include "common/doctor/agent_side.hpp"

#include <spdlog/spdlog.h>

#include "common/agent_api/api_types.hpp"

namespace tfwsl::doctor {

Report decode_agent_checks(const nlohmann::json& body) {
  Report report;
  if (!body.is_object() || !body.contains("checks") || !body["checks"].is_array()) {
    spdlog::warn("the agent's /v1/checks answer has no checks list");
    return report;
  }
  for (const auto& c : body["checks"]) {
    CheckResult r;
    std::string error;
    if (from_json(c, r, error)) report.checks.push_back(std::move(r));
    else spdlog::warn("agent check not understood: {}", error);
  }
  return report;
}

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
  if (auto info = s.get(agent_api::route::k_info, timeouts.info); info && info->status == 200) side.info = info->body;
  auto checks = s.get(agent_api::route::k_checks, timeouts.checks);
  if (!checks || checks->status != 200) {
    side.link = AgentLink::none;
    side.error = checks ? "GET /v1/checks answered HTTP " + std::to_string(checks->status)
                        : "tfwsl-agent " + host.where() + " did not answer GET /v1/checks: " + checks.error().describe();
    return side;
  }
  side.checks = decode_agent_checks(checks->body);
  if (auto gpu = s.get(agent_api::route::k_gpu, timeouts.gpu); gpu && gpu->status == 200) {
    if (auto parsed = agent_api::parse_gpu(gpu->body)) side.gpu = *parsed;
  }
  return side;
}

}  // namespace tfwsl::doctor
