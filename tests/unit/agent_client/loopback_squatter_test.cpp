// The bridge's real HTTP transport against real listeners on 127.0.0.1: a squatter on the
// handshake's port that cannot prove the token (it must never receive the token), and a port where
// nothing listens (localhost forwarding broken). The agent's child is scripted (its stdio frames
// carry the requests in both cases).
#include <httplib.h>

#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

#include "tests/support/fake_agent_bridge.hpp"
#include "win/agent_client/agent_bridge.hpp"
#include "win/agent_client/local_agent_host.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_client;

namespace {

// Answers every request with `status` and `body`, and remembers what it was sent.
class Squatter {
 public:
  Squatter(int status, std::string body) {
    auto handler = [this, status, body](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(m_mutex);
        std::string seen = req.method + " " + req.path + "\n";
        for (const auto& [k, v] : req.headers) seen += k + ": " + v + "\n";
        seen += req.body;
        m_seen.push_back(seen);
      }
      res.status = status;
      res.set_content(body, "application/json");
    };
    m_server.Get(".*", handler);
    m_server.Post(".*", handler);
    m_port = m_server.bind_to_any_port("127.0.0.1");
    m_thread = std::thread([this] { m_server.listen_after_bind(); });
    m_server.wait_until_ready();
  }
  ~Squatter() {
    m_server.stop();
    m_thread.join();
  }
  int port() const { return m_port; }
  std::vector<std::string> seen() {
    std::lock_guard lock(m_mutex);
    return m_seen;
  }

 private:
  httplib::Server m_server;
  int m_port = 0;
  std::thread m_thread;
  std::mutex m_mutex;
  std::vector<std::string> m_seen;
};

BridgeOptions quick() {
  BridgeOptions o;
  o.expected_version = "0.1.0";
  o.handshake_timeout = std::chrono::seconds(2);
  o.challenge_timeout = std::chrono::seconds(2);
  return o;
}

}  // namespace

TEST_CASE("a squatter that answers the challenge wrongly never sees the token, stdio carries the requests") {
  for (auto [status, body] : {std::pair<int, std::string>{200, "{\"proof\":\"" + std::string(64, '0') + "\"}"},
                              std::pair<int, std::string>{404, "{\"error\":\"not found\"}"}}) {
    INFO("the squatter answers HTTP " << status);
    Squatter squatter(status, body);
    auto agent = test::agent_child("0.1.0", squatter.port());
    test::ScriptedLauncher launcher({agent});
    LocalAgentHost host(launcher, "/opt/tfwsl/tfwsl-agent");
    HttpLoopbackConnector loopback;

    auto session = connect_agent(host, loopback, quick());
    REQUIRE(session);
    CHECK((*session)->link() == AgentLink::stdio_impostor);
    auto info = (*session)->get("/v1/info", std::chrono::seconds(2));
    REQUIRE(info);
    CHECK(info->body["via"] == "stdio");

    const std::string token = agent->token_line();
    REQUIRE(token.size() == 64);
    auto seen = squatter.seen();
    REQUIRE(seen.size() == 1);  // the challenge, nothing after it
    CHECK(seen[0].rfind("POST /v1/challenge\n", 0) == 0);
    CHECK(seen[0].find("Authorization") == std::string::npos);
    CHECK(seen[0].find(token) == std::string::npos);
  }
}

TEST_CASE("nothing listening on the handshake's port: the stdio fallback, and the problem names the port") {
  int dead_port = 0;
  {
    Squatter gone(200, "{}");
    dead_port = gone.port();
  }
  auto agent = test::agent_child("0.1.0", dead_port);
  test::ScriptedLauncher launcher({agent});
  LocalAgentHost host(launcher, "/opt/tfwsl/tfwsl-agent");
  HttpLoopbackConnector loopback;

  auto session = connect_agent(host, loopback, quick());
  REQUIRE(session);
  CHECK((*session)->link() == AgentLink::stdio_fallback);
  CHECK((*session)->localhost_problem().find("127.0.0.1:" + std::to_string(dead_port) + " does not answer (") == 0);
  auto info = (*session)->get("/v1/info", std::chrono::seconds(2));
  REQUIRE(info);
  CHECK(info->body["via"] == "stdio");
}

TEST_CASE("the local host starts the agent itself (no wsl.exe) and has no other to run") {
  auto agent = test::agent_child("0.0.9", 1);
  test::ScriptedLauncher launcher({agent});
  LocalAgentHost host(launcher, "/opt/tfwsl/tfwsl-agent");
  test::FakeLoopback loopback(test::FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, quick());
  REQUIRE(!session);
  CHECK(agent->argv ==
        std::vector<std::string>{"/opt/tfwsl/tfwsl-agent", "serve", "--listen", "127.0.0.1:0", "--stdio-handshake"});
  CHECK(agent->finished);
  CHECK(session.error().code == ErrorCode::not_found);
  CHECK(session.error().message.find(
            "could not be started on this machine (it is tfwsl-agent 0.0.9, tfwsl 0.1.0 needs its own version") !=
        std::string::npos);
  CHECK(session.error().message.find("--agent PATH or TFWSL_AGENT=PATH") != std::string::npos);
  CHECK(launcher.starts() == 1);
}
