// The bridge (win/agent_client/agent_bridge.hpp) with its ports faked: the agent's child
// (scripted), wsl.exe (a recording process runner) and 127.0.0.1 (a fake, or a real squatting HTTP
// server on loopback). What it must do: run the agent shipped with tfwsl when the installed one is
// missing or outdated, installing nothing and running nothing as root (in place, else from a
// temporary copy), never hand the token to a port that fails the challenge, fall back to stdio when
// localhost is broken, and report an agent that says nothing as a timeout.
#include "win/agent_client/agent_bridge.hpp"

#include <catch2/catch.hpp>

#include "tests/support/fake_agent_bridge.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "win/agent_client/wsl_agent_host.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_client;
using tfwsl::test::FakeLoopback;
using tfwsl::test::ScriptedLauncher;

namespace {

const std::string k_agent = "/usr/local/lib/tfwsl/tfwsl-agent";
const std::vector<std::string> k_serve{"wsl.exe", "-d",       "Ubuntu",      "--exec",           k_agent,
                                       "serve",   "--listen", "127.0.0.1:0", "--stdio-handshake"};

ProcessOutcome exited(int code, std::string out = {}, std::string err = {}) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = std::move(out);
  o.err = std::move(err);
  return o;
}

// wsl.exe with a distro whose C:/Z: drives are under `automount_root`; it answers only wslpath.
struct FakeWsl {
  explicit FakeWsl(const std::string& automount_root = "/mnt/") {
    runner.on({"wsl.exe", "-d", "Ubuntu", "--exec", "wslpath", "-u"}, [automount_root](const ProcessRequest& r) {
      return Result<ProcessOutcome>(
          exited(0, automount_root + std::string(1, char(std::tolower(r.argv.back()[0]))) + "/\n"));
    });
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

const std::vector<std::string> k_serve_args{"serve", "--listen", "127.0.0.1:0", "--stdio-handshake"};
const std::vector<std::string> k_wslpath_z{"wsl.exe", "-d", "Ubuntu", "--exec", "wslpath", "-u", "Z:\\"};

// The shipped agent run in place: wsl.exe -d Ubuntu --exec <source> serve ...
std::vector<std::string> in_place_start(const std::string& source) {
  std::vector<std::string> argv{"wsl.exe", "-d", "Ubuntu", "--exec", source};
  argv.insert(argv.end(), k_serve_args.begin(), k_serve_args.end());
  return argv;
}

// The shipped agent run from a temporary copy: wsl.exe -d Ubuntu --exec sh -c <script> tfwsl-agent <source> serve ...
std::vector<std::string> temp_copy_start(const std::string& source) {
  std::vector<std::string> argv{"wsl.exe",          "-d",          "Ubuntu", "--exec", "sh", "-c",
                                temp_copy_script(), "tfwsl-agent", source};
  argv.insert(argv.end(), k_serve_args.begin(), k_serve_args.end());
  return argv;
}

// What wsl.exe prints when --exec names a file on a drive mounted noexec.
std::shared_ptr<test::AgentChildScript> noexec_child(const std::string& path) {
  auto s = test::missing_agent_child();
  s->stderr_text = "<3>WSL (123) ERROR: CreateProcessCommon:640: execvpe(" + path + ") failed: Permission denied\n";
  return s;
}

// Doctor changes nothing: no command as root, no install, no copy outside the temp-copy script.
void check_nothing_installed(const FakeWsl& wsl, const std::vector<std::shared_ptr<test::AgentChildScript>>& children) {
  auto commands = wsl.calls();
  for (const auto& c : children) commands.push_back(c->argv);
  for (const auto& argv : commands) {
    CAPTURE(argv);
    // wsl.exe's own options come before --exec: no -u/--user there (the agent runs as the default user).
    auto exec = std::find(argv.begin(), argv.end(), "--exec");
    CHECK(std::find(argv.begin(), exec, "-u") == exec);
    CHECK(std::find(argv.begin(), exec, "--user") == exec);
    CHECK(std::find(argv.begin(), argv.end(), "install") == argv.end());
    bool copies = std::find(argv.begin(), argv.end(), "sh") != argv.end();
    if (copies) CHECK(std::find(argv.begin(), argv.end(), std::string(temp_copy_script())) != argv.end());
  }
}

}  // namespace

TEST_CASE("bridge: a missing agent: the shipped one runs from its path in the distro, nothing installed") {
  FakeWsl wsl;
  auto missing = test::missing_agent_child();
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({missing, agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->origin() == AgentOrigin::shipped);
  CHECK((*session)->link() == AgentLink::http);
  CHECK((*session)->describe() ==
        "tfwsl-agent 0.1.0 in Ubuntu over http (127.0.0.1:4242), run from /mnt/z/app/tfwsl-agent");
  CHECK(missing->argv == k_serve);
  CHECK(agent->argv == in_place_start("/mnt/z/app/tfwsl-agent"));
  CHECK(wsl.calls() == std::vector<std::vector<std::string>>{k_wslpath_z});
  check_nothing_installed(wsl, {missing, agent});
  // Two agent starts and wslpath.
  CHECK(wsl.client.starts() == 3);
  // The token went on the agent's stdin, 64 hex digits, and only there.
  CHECK(agent->token_line().size() == 64);
  CHECK(loopback.ports == std::vector<int>{4242});
}

TEST_CASE("bridge: a drive mounted noexec: the shipped one runs from a temporary copy") {
  FakeWsl wsl;
  auto missing = test::missing_agent_child();
  auto noexec = noexec_child("/mnt/z/app/tfwsl-agent");
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({missing, noexec, agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->origin() == AgentOrigin::shipped_copy);
  CHECK((*session)->describe() ==
        "tfwsl-agent 0.1.0 in Ubuntu over http (127.0.0.1:4242), run from a temporary copy of /mnt/z/app/tfwsl-agent");
  CHECK(noexec->argv == in_place_start("/mnt/z/app/tfwsl-agent"));
  CHECK(noexec->finished);
  CHECK(agent->argv == temp_copy_start("/mnt/z/app/tfwsl-agent"));
  // wslpath is asked once for both shipped starts.
  CHECK(wsl.calls() == std::vector<std::vector<std::string>>{k_wslpath_z});
  check_nothing_installed(wsl, {missing, noexec, agent});
  CHECK(agent->token_line().size() == 64);
}

TEST_CASE("bridge: the temporary copy is made with mktemp and removed on every way out") {
  const std::string script = temp_copy_script();
  CHECK(script.find("mktemp \"${TMPDIR:-/tmp}/tfwsl-agent.XXXXXX\"") != std::string::npos);
  CHECK(script.find("trap 'rm -f \"$t\"' EXIT") != std::string::npos);
  for (const char* signal : {"HUP", "INT", "TERM"})
    CHECK(script.find(std::string("' ") + signal + "\n") != std::string::npos);
  // The agent runs as the shell's child (not exec'd), so the shell is still there to remove the copy.
  CHECK(script.find("exec ") == std::string::npos);
}

TEST_CASE("bridge: the shipped agent's path follows the distro's automount root (wsl.conf root = /windir/)") {
  FakeWsl wsl("/windir/");
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({test::missing_agent_child(), agent});
  WslAgentHost host(wsl.client, launcher, ubuntu("C:\\Program Files\\tfwsl\\tfwsl-agent"));
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  REQUIRE(connect_agent(host, loopback, options()));
  CHECK(agent->argv == in_place_start("/windir/c/Program Files/tfwsl/tfwsl-agent"));
}

TEST_CASE("bridge: when wslpath gives no mount point, WSL's default /mnt/ is used") {
  test::RecordingProcessRunner runner;
  runner.on({"wsl.exe", "-d", "Ubuntu", "--exec", "wslpath"}, exited(1, "", "wslpath: command not found\n"));
  wsl::WslSettings settings;
  settings.exe = "wsl.exe";
  wsl::WslClient client(runner, settings);
  auto agent = test::agent_child("0.1.0", 4242);
  ScriptedLauncher launcher({test::missing_agent_child(), agent});
  WslAgentHost host(client, launcher, ubuntu("D:\\tools\\tfwsl-agent"));
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  REQUIRE(connect_agent(host, loopback, options()));
  CHECK(agent->argv == in_place_start("/mnt/d/tools/tfwsl-agent"));
}

TEST_CASE("bridge: an installed agent of another version is stopped and left alone, the shipped one is used") {
  FakeWsl wsl;
  auto old_agent = test::agent_child("0.0.9", 1111);
  auto new_agent = test::agent_child("0.1.0", 2222);
  ScriptedLauncher launcher({old_agent, new_agent});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);

  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->origin() == AgentOrigin::shipped);
  CHECK((*session)->handshake().agent == "0.1.0");
  // What the installed one said it is, for the doctor to name (doctor_header.hpp).
  CHECK((*session)->installed_version() == "0.0.9");
  CHECK(old_agent->finished);
  CHECK_FALSE(new_agent->finished);
  CHECK(old_agent->argv == k_serve);
  CHECK(new_agent->argv == in_place_start("/mnt/z/app/tfwsl-agent"));
  check_nothing_installed(wsl, {old_agent, new_agent});
  // The old agent's port is never asked anything.
  CHECK(loopback.ports == std::vector<int>{2222});
}

TEST_CASE("bridge: a current installed agent is used as it is: one wsl.exe start, nothing else") {
  FakeWsl wsl;
  ScriptedLauncher launcher({test::agent_child("0.1.0", 4242)});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, options());
  REQUIRE(session);
  CHECK((*session)->origin() == AgentOrigin::installed);
  CHECK((*session)->installed_version().empty());
  CHECK((*session)->describe() == "tfwsl-agent 0.1.0 in Ubuntu over http (127.0.0.1:4242)");
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

TEST_CASE("bridge: an agent that sends no handshake is a clear timeout, not a reason to run another") {
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

TEST_CASE("bridge: a shipped agent that starts neither in place nor from a copy is an error naming both") {
  FakeWsl wsl;
  auto copy_failed = test::missing_agent_child();
  copy_failed->stderr_text = "cp: cannot create regular file '/tmp/tfwsl-agent.x1Y2z3': No space left on device\n";
  ScriptedLauncher launcher({test::missing_agent_child(), noexec_child("/mnt/z/app/tfwsl-agent"), copy_failed});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, options());
  REQUIRE(!session);
  CHECK(session.error().code == ErrorCode::process);
  const auto& m = session.error().message;
  CHECK(m.find("the shipped tfwsl-agent (/mnt/z/app/tfwsl-agent) did not start in Ubuntu") != std::string::npos);
  CHECK(m.find("Permission denied") != std::string::npos);
  CHECK(m.find("No space left on device") != std::string::npos);
  CHECK(launcher.starts() == 3);
}

TEST_CASE("bridge: a shipped agent of another version is not used either: an error, not a loop") {
  FakeWsl wsl;
  auto shipped = test::agent_child("0.0.9", 3333);
  ScriptedLauncher launcher({test::agent_child("0.0.8", 1111), shipped});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto session = connect_agent(host, loopback, options());
  REQUIRE(!session);
  CHECK(session.error().code == ErrorCode::process);
  CHECK(session.error().message.find("is not usable: it is tfwsl-agent 0.0.9, tfwsl 0.1.0 needs its own version") !=
        std::string::npos);
  CHECK(shipped->finished);
  CHECK(launcher.starts() == 2);
  CHECK(loopback.ports.empty());
}

TEST_CASE("bridge: a shipped agent that says nothing is a timeout, not a try from a copy") {
  FakeWsl wsl;
  ScriptedLauncher launcher({test::missing_agent_child(), test::silent_agent_child()});
  WslAgentHost host(wsl.client, launcher, ubuntu());
  FakeLoopback loopback(FakeLoopback::Mode::agent);
  auto o = options();
  o.handshake_timeout = std::chrono::milliseconds(200);
  auto session = connect_agent(host, loopback, o);
  REQUIRE(!session);
  CHECK(session.error().code == ErrorCode::timeout);
  CHECK(
      session.error().message.find("the shipped tfwsl-agent (/mnt/z/app/tfwsl-agent) in Ubuntu started but it sent no "
                                   "handshake within 200 ms") != std::string::npos);
  CHECK(launcher.starts() == 2);
}

TEST_CASE("tokens are 64 lower-case hex digits and differ each time") {
  auto a = make_token(), b = make_token();
  CHECK(a.size() == 64);
  CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(a != b);
}
