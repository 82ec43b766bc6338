// The doctor's Linux side from the agent (win/doctor/agent_side.hpp) over a faked bridge: the
// link and its description, the decoding of /v1/facts, and an agent that stops answering.
#include "win/doctor/agent_side.hpp"

#include <catch2/catch.hpp>

#include "common/agent_api/linux_facts.hpp"
#include "tests/support/fake_agent_bridge.hpp"
#include "win/agent_client/local_agent_host.hpp"

using namespace tfwsl;
using namespace tfwsl::doctor;

namespace {

agent_client::BridgeOptions quick() {
  agent_client::BridgeOptions o;
  o.expected_version = "0.1.0";
  o.handshake_timeout = std::chrono::seconds(2);
  o.challenge_timeout = std::chrono::seconds(1);
  return o;
}

agent_api::LinuxFacts some_facts() {
  agent_api::LinuxFacts facts;
  facts.wsl.kind = agent_api::WslKind::wsl2;
  facts.wsl.dxg = true;
  facts.gpu.nvml_driver_version = "546.80";
  facts.gpu.nvml_source = "nvml";
  facts.system.mem_total_kb = 16318464;
  return facts;
}

}  // namespace

TEST_CASE("the Linux side over the stdio fallback: link, description, facts and GPU") {
  auto agent = test::agent_child("0.1.0", 4242);
  agent->answers["/v1/facts"] = {200, agent_api::to_json(some_facts())};
  test::ScriptedLauncher launcher({agent});
  agent_client::LocalAgentHost host(launcher, "/opt/tfwsl-agent");
  test::FakeLoopback loopback(test::FakeLoopback::Mode::dead_port);

  auto side = linux_side_from_agent(host, loopback, quick());
  CHECK(side.error.empty());
  CHECK(side.link == AgentLink::stdio_fallback);
  CHECK_FALSE(side.forwarded);
  CHECK(side.description == "tfwsl-agent 0.1.0 on this machine over stdio (stdio fallback)");
  CHECK(side.localhost_problem.find("127.0.0.1:4242 does not answer") == 0);
  CHECK(side.info["via"] == "stdio");
  REQUIRE(side.facts);
  CHECK(side.facts->wsl.dxg);
  CHECK(side.facts->system.mem_total_kb == std::optional<std::uint64_t>(16318464));
  REQUIRE(side.gpu);
  CHECK(side.gpu->nvml_driver_version == "546.80");
  CHECK(agent->frame_paths == std::vector<std::string>{"/v1/info", "/v1/facts"});
}

TEST_CASE("facts the doctor cannot read leave no link and say which field") {
  auto agent = test::agent_child("0.1.0", 4242);
  auto body = agent_api::to_json(some_facts());
  body["system"]["mem_total_kb"] = "16 GB";
  agent->answers["/v1/facts"] = {200, body};
  test::ScriptedLauncher launcher({agent});
  agent_client::LocalAgentHost host(launcher, "/opt/tfwsl-agent");
  test::FakeLoopback loopback(test::FakeLoopback::Mode::dead_port);
  auto side = linux_side_from_agent(host, loopback, quick());
  CHECK(side.link == AgentLink::none);
  CHECK_FALSE(side.facts);
  CHECK(side.error.find("system.mem_total_kb") != std::string::npos);
}

TEST_CASE("an agent that stops answering leaves no link and a timeout naming the route") {
  auto agent = test::agent_child("0.1.0", 4242);
  agent->silent_paths = {"/v1/facts"};
  test::ScriptedLauncher launcher({agent});
  agent_client::LocalAgentHost host(launcher, "/opt/tfwsl-agent");
  test::FakeLoopback loopback(test::FakeLoopback::Mode::dead_port);
  AgentSideTimeouts timeouts;
  timeouts.facts = std::chrono::milliseconds(200);

  auto side = linux_side_from_agent(host, loopback, quick(), timeouts);
  CHECK(side.link == AgentLink::none);
  CHECK(side.error.find("tfwsl-agent on this machine did not answer GET /v1/facts") == 0);
  CHECK(side.error.find("within") != std::string::npos);
  CHECK(agent->finished);  // the session ended the agent
}

TEST_CASE("an agent that cannot be started gives the bridge's error and no link") {
  test::ScriptedLauncher launcher({test::missing_agent_child()});
  agent_client::LocalAgentHost host(launcher, "/opt/tfwsl-agent");
  test::FakeLoopback loopback(test::FakeLoopback::Mode::agent);
  auto side = linux_side_from_agent(host, loopback, quick());
  CHECK(side.link == AgentLink::none);
  CHECK(side.error.find("could not be started on this machine") != std::string::npos);
}
