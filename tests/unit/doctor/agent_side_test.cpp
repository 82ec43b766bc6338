// The doctor's Linux side from the agent (common/doctor/agent_side.hpp) over a faked bridge: the
// link and its description, the decoding of /v1/checks and /v1/gpu, and an agent that stops answering.
#include <catch2/catch.hpp>

#include "common/agent_client/local_agent_host.hpp"
#include "common/doctor/agent_side.hpp"
#include "tests/support/fake_agent_bridge.hpp"

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

nlohmann::json checks_body() {
  return {{"checks",
           {{{"id", "linux.dxg"}, {"status", "ok"}, {"summary", "/dev/dxg is present"}, {"details", nlohmann::json::array()}, {"fix", ""}},
            {{"id", "tf.gpu"}, {"status", "bogus"}, {"summary", "?"}},
            {{"id", "cudnn"}, {"status", "warn"}, {"summary", "cuDNN 8"}, {"details", {"x"}}, {"fix", "upgrade"}}}}};
}

}  // namespace

TEST_CASE("decode_agent_checks keeps what it understands and drops the rest") {
  auto report = decode_agent_checks(checks_body());
  REQUIRE(report.checks.size() == 2);
  CHECK(report.checks[0].id == "linux.dxg");
  CHECK(report.checks[1].status == CheckStatus::warn);
  CHECK(decode_agent_checks(nlohmann::json::object()).checks.empty());
  CHECK(decode_agent_checks(nlohmann::json::array()).checks.empty());
}

TEST_CASE("the Linux side over the stdio fallback: link, description, checks and GPU") {
  auto agent = test::agent_child("0.1.0", 4242);
  agent->answers["/v1/checks"] = {200, checks_body()};
  agent_api::GpuResponse gpu;
  gpu.nvml_driver_version = "546.80";
  gpu.nvml_source = "nvml";
  agent->answers["/v1/gpu"] = {200, agent_api::to_json(gpu)};
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
  REQUIRE(side.checks.checks.size() == 2);
  REQUIRE(side.gpu);
  CHECK(side.gpu->nvml_driver_version == "546.80");
  CHECK(agent->frame_paths == std::vector<std::string>{"/v1/info", "/v1/checks", "/v1/gpu"});
}

TEST_CASE("an agent that stops answering leaves no link and a timeout naming the route") {
  auto agent = test::agent_child("0.1.0", 4242);
  agent->silent_paths = {"/v1/checks"};
  test::ScriptedLauncher launcher({agent});
  agent_client::LocalAgentHost host(launcher, "/opt/tfwsl-agent");
  test::FakeLoopback loopback(test::FakeLoopback::Mode::dead_port);
  AgentSideTimeouts timeouts;
  timeouts.checks = std::chrono::milliseconds(200);

  auto side = linux_side_from_agent(host, loopback, quick(), timeouts);
  CHECK(side.link == AgentLink::none);
  CHECK(side.error.find("tfwsl-agent on this machine did not answer GET /v1/checks") == 0);
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
