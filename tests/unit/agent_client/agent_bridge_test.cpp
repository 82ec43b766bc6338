// The bridge (common/agent_client/agent_bridge.hpp) with its ports faked: the agent's child
// (scripted), wsl.exe (a recording process runner) and 127.0.0.1 (a fake, or a real squatting HTTP
// server on loopback). What it must do: install a missing or outdated agent and start it again,
// never hand the token to a port that fails the challenge, fall back to stdio when localhost is
// broken, and report an agent that says nothing as a timeout.
#include <catch2/catch.hpp>

#include "common/agent_client/agent_bridge.hpp"
#include "common/agent_client/wsl_agent_host.hpp"
#include "tests/support/fake_agent_bridge.hpp"
#include "tests/support/recording_process_runner.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_client;
using tfwsl::test::FakeLoopback;
using tfwsl::test::ScriptedLauncher;

namespace {

const std::string k_agent = "/usr/local/lib/tfwsl/tfwsl-agent";
const std::vector<std::string> k_serve{"wsl.exe", "-d", "Ubuntu", "--exec", k_agent, "serve", "--listen", "127.0.0.1:0",
                                       "--stdio-handshake"};

ProcessOutcome exited(int code, std::string out = {}, std::string err = {}) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = std::move(out);
  o.err = std::move(err);
  return o;
}

// wsl.exe with a distro whose C:/Z: drives are under `automount_root` and where install succeeds.
struct FakeWsl {
  explicit FakeWsl(const std::string& automount_root = "/mnt/") {
    runner.on({"wsl.exe", "-d", "Ubuntu", "--exec", "wslpath", "-u"}, [automount_root](const ProcessRequest& r) {
      return Result<ProcessOutcome>(exited(0, automount_root + std::string(1, char(std::tolower(r.argv.back()[0]))) + "/\n"));
    });
    runner.on({"wsl.exe", "-d", "Ubuntu", "-u", "root", "--exec", "install"}, exited(0));
  }
  wsl::WslSettings settings() const {
    wsl::WslSettings s;
    s.exe = "wsl.exe";
    return s;
  }
  std::vector<std::vector<std::string>> calls() const {
    std::vector<std::vector<std::string>> out;
    for (const auto& r : runner.requests()) out.push_back(r.argv);
    return out;
  }
  test::RecordingProcessRunner runner;
  wsl::WslClient client{runner, settings()};
};

WslAgentSettings ubuntu(std::string shipped = "Z:\\app\\tfwsl-agent") {
  WslAgentSettings s;
  s.distro = "Ubuntu";
  s.shipped_agent = std::move(shipped);
  return s;
}

BridgeOptions options() {
  BridgeOptions o;
  o.expected_version = "0.1.0";
  o.handshake_timeout = std::chrono::seconds(2);
  o.challenge_timeout = std::chrono::seconds(2);
  return o;
}

std::vector<std::string> install_call(const std::string& source) {
  return {"wsl.exe", "-d", "Ubuntu", "-u", "root", "--exec", "install", "-D", "-m", "0755", source, k_agent};
}

}  // namespace

TEST_CASE("bridge: a missing agent is installed from beside tfwsl.exe and started again") {
  FakeWsl wsl;
  auto missing = test::missing_agent_child();
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({missing, agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->deployed());
  CHECK((*session)->link() == AgentLink::http);
  CHECK((*session)->describe() == "tfwsl-agent 0.1.0 in Ubuntu over http (127.0.0.1:4242), installed just now");
  CHECK(missing->argv == k_serve);
  CHECK(agent->argv == k_serve);
  CHECK(wsl.calls() == std::vector<std::vector<std::string>>{{"wsl.exe", "-d", "Ubuntu", "--exec", "wslpath", "-u", "Z:\\"},
                                                             install_call("/mnt/z/app/tfwsl-agent")});
  // Two agent starts, wslpath and install.
  CHECK(wsl.client.starts() == 4);
  // The token went on the agent's stdin, 64 hex digits, and only there.
  CHECK(agent->token_line().size() == 64);
  CHECK(loopback.ports == std::vector<int>{4242});
}

TEST_CASE("bridge: the install follows the distro's automount root (wsl.conf root = /windir/)") {
  FakeWsl wsl("/windir/");
  ScriptedLauncher launcher({test::missing_agent_child(), test::agent_child("0.1.0", 4242)});
  WslAgentHost host(wsl.client, launcher, ubuntu("C:\\Program Files\\tfwsl\\tfwsl-agent"));
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  REQUIRE(connect_agent(host, loopback, options()));
  CHECK(wsl.calls().back() == install_call("/windir/c/Program Files/tfwsl/tfwsl-agent"));
}

TEST_CASE("bridge: when wslpath gives no mount point, WSL's default /mnt/ is used") {
  test::RecordingProcessRunner runner;
  runner.on({"wsl.exe", "-d", "Ubuntu", "--exec", "wslpath"}, exited(1, "", "wslpath: command not found\n"));
  runner.on({"wsl.exe", "-d", "Ubuntu", "-u", "root", "--exec", "install"}, exited(0));
  wsl::WslSettings settings;
  settings.exe = "wsl.exe";
  wsl::WslClient client(runner, settings);
  ScriptedLauncher launcher({test::missing_agent_child(), test::agent_child("0.1.0", 4242)});
  WslAgentHost host(client, launcher, ubuntu("D:\\tools\\tfwsl-agent"));
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  REQUIRE(connect_agent(host, loopback, options()));
  CHECK(runner.requests().back().argv == install_call("/mnt/d/tools/tfwsl-agent"));
}

TEST_CASE("bridge: an agent of another version is stopped, replaced and started again") {
  FakeWsl wsl;
  auto old_agent = test::agent_child("0.0.9", 1111);
  auto new_agent = test::agent_child("0.1.0", 2222);
  ScriptedLauncher launcher({old_agent, new_agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->deployed());
  CHECK((*session)->handshake().agent == "0.1.0");
  CHECK(old_agent->finished);
  CHECK_FALSE(new_agent->finished);
  CHECK(wsl.calls().back() == install_call("/mnt/z/app/tfwsl-agent"));
  // The old agent's port is never asked anything.
  CHECK(loopback.ports == std::vector<int>{2222});
}

TEST_CASE("bridge: a current agent is used as it is: one wsl.exe start, nothing installed") {
  FakeWsl wsl;
  ScriptedLauncher launcher({test::agent_child("0.1.0", 4242)});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK_FALSE((*session)->deployed());
  CHECK(wsl.calls().empty());
  CHECK(wsl.client.starts() == 1);
  auto info = (*session)->get("/v1/info", std::chrono::seconds(1));
  REQUIRE(info);
  CHECK(info->body["via"] == "http");
  CHECK(loopback.requests_with_token == std::vector<std::string>{"/v1/info"});
}

TEST_CASE("bridge: a missing agent and none shipped is an error naming the distro and the fix") {
  FakeWsl wsl;
  ScriptedLauncher launcher({test::missing_agent_child()});
  WslAgentHost host(wsl.client, launcher, ubuntu(""));
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, options());
  REQUIRE(!session);
  CHECK(session.error().code == ErrorCode::not_found);
  CHECK(session.error().message.find("could not be started in Ubuntu") != std::string::npos);
  CHECK(session.error().message.find("execvpe") != std::string::npos);
  CHECK(session.error().message.find("--agent PATH") != std::string::npos);
  CHECK(wsl.calls().empty());
}

TEST_CASE("bridge: an impostor on the port gets no token, the requests go over stdio") {
  FakeWsl wsl;
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::impostor);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->link() == AgentLink::stdio_impostor);
  CHECK((*session)->localhost_problem().find("another program answers on 127.0.0.1:4242") != std::string::npos);
  auto info = (*session)->get("/v1/info", std::chrono::seconds(1));
  REQUIRE(info);
  CHECK(info->body["via"] == "stdio");
  CHECK(loopback.requests_with_token.empty());
  CHECK(agent->frame_paths == std::vector<std::string>{"/v1/info"});
  CHECK((*session)->describe().find("over stdio (stdio fallback)") != std::string::npos);
}

TEST_CASE("bridge: localhost forwarding broken (nothing on the port): stdio fallback, said so") {
  FakeWsl wsl;
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::dead_port);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->link() == AgentLink::stdio_fallback);
  CHECK((*session)->localhost_problem().find("127.0.0.1:4242 does not answer from Windows") != std::string::npos);
  auto info = (*session)->get("/v1/info", std::chrono::seconds(1));
  REQUIRE(info);
  CHECK(info->status == 200);
  CHECK(info->body["via"] == "stdio");
  CHECK(loopback.requests_with_token.empty());
}

TEST_CASE("bridge: an agent that sends no handshake is a clear timeout, not a reinstall") {
  FakeWsl wsl;
  auto silent = test::silent_agent_child();
  ScriptedLauncher launcher({silent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto o = options();
  o.handshake_timeout = std::chrono::milliseconds(200);

  const auto started = std::chrono::steady_clock::now();
  auto session = connect_agent(host, loopback, o);
  REQUIRE(!session);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  CHECK(session.error().code == ErrorCode::timeout);
  CHECK(session.error().message ==
        "tfwsl-agent in Ubuntu started but it sent no handshake within 200 ms: run 'wsl --shutdown' and try again "
        "(a stuck WSL VM is the usual cause)");
  CHECK(silent->finished);
  CHECK(silent->token_line().size() == 64);
  CHECK(wsl.calls().empty());
  CHECK(launcher.starts() == 1);
  CHECK(loopback.ports.empty());
}

TEST_CASE("bridge: an installed agent that still does not start is an error saying so") {
  FakeWsl wsl;
  ScriptedLauncher launcher({test::missing_agent_child(), test::missing_agent_child()});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, options());
  REQUIRE(!session);
  CHECK(session.error().code == ErrorCode::process);
  CHECK(session.error().message.find("the agent installed in Ubuntu did not start") != std::string::npos);
}

TEST_CASE("tokens are 64 lower-case hex digits and differ each time") {
  auto a = make_token(), b = make_token();
  CHECK(a.size() == 64);
  CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(a != b);
}
