#include "win/agent_service/agent_service.hpp"

#include <catch2/catch.hpp>

#include "common/build_info/build_info.hpp"

using namespace tfwsl;

namespace {

// Answers each sh -c by the order of calls; records the scripts' arguments, stdin and root-ness.
class ScriptedShell final : public agent_service::DistroShell {
 public:
  std::vector<agent_service::ShellReply> replies;
  struct Call {
    std::vector<std::string> args;
    std::optional<std::string> input;
    bool as_root = false;
  };
  std::vector<Call> calls;

  std::string where() const override { return "in Test"; }
  bool through_wsl() const override { return true; }
  Result<agent_service::ShellReply> sh(const std::string&, const std::vector<std::string>& args,
                                       const std::optional<std::string>& input, bool as_root) override {
    calls.push_back({args, input, as_root});
    if (replies.empty()) return make_error(ErrorCode::process, "no reply scripted");
    auto r = replies.front();
    replies.erase(replies.begin());
    return r;
  }
};

}  // namespace

TEST_CASE("the persistent agent's state is read from the status script's lines", "[agent-service]") {
  ScriptedShell shell;
  shell.replies = {{0,
                    "state_dir=/home/me/.config/tfwsl\ninstalled=yes\nversion=tfwsl-agent 0.1.0\nrunning=yes\n"
                    "handshake={\"agent\":\"0.1.0\",\"api\":2,\"pid\":77,\"port\":41234}\ntoken_mode=600\n",
                    ""}};
  auto s = agent_service::read_service_status(shell, "/usr/local/lib/tfwsl/tfwsl-agent");
  REQUIRE(s);
  CHECK(s->installed);
  CHECK(s->installed_version == "0.1.0");
  CHECK(s->running);
  CHECK(s->pid == 77);
  CHECK(s->port == 41234);
  CHECK(s->token_file == "/home/me/.config/tfwsl/agent.token");
  CHECK(s->token_mode == "600");
  CHECK(shell.calls[0].args == std::vector<std::string>{"/usr/local/lib/tfwsl/tfwsl-agent"});
  CHECK_FALSE(shell.calls[0].as_root);
}

TEST_CASE("install runs as root through wslpath - start sends the token on stdin, never as an argument",
          "[agent-service]") {
  ScriptedShell shell;
  shell.replies = {{0, "", ""},
                   {0, "{\"agent\":\"0.1.0\",\"api\":2,\"pid\":9,\"port\":5}\n", ""},
                   {0, "installed=yes\nrunning=no\n", ""}};
  REQUIRE(agent_service::install_agent(shell, "C:\\tfwsl\\tfwsl-agent", "/usr/local/lib/tfwsl/tfwsl-agent"));
  CHECK(shell.calls[0].as_root);
  CHECK(shell.calls[0].args ==
        std::vector<std::string>{"C:\\tfwsl\\tfwsl-agent", "/usr/local/lib/tfwsl/tfwsl-agent", "wslpath"});
  const std::string token(64, 'a');
  auto started = agent_service::start_service(shell, {"/a", 0, {"/data"}, token});
  REQUIRE(started);
  CHECK(started->pid == 9);  // from the handshake when the status read came too early
  CHECK(shell.calls[1].input == token + "\n");
  for (const auto& arg : shell.calls[1].args) CHECK(arg.find(token) == std::string::npos);
  CHECK(shell.calls[1].args == std::vector<std::string>{"/a", "0", "/data"});
}

TEST_CASE("a start that finds an agent running is a conflict - a stop with none running is false", "[agent-service]") {
  ScriptedShell shell;
  shell.replies = {
      {9, "{\"agent\":\"0.1.0\",\"api\":2,\"pid\":9,\"port\":5}\n", ""}, {7, "", ""}, {8, "", "pid 9 did not stop"}};
  auto started = agent_service::start_service(shell, {"/a", 0, {}, std::string(64, 'b')});
  REQUIRE_FALSE(started);
  CHECK(started.error().code == ErrorCode::conflict);
  auto none = agent_service::stop_service(shell, "/a");
  REQUIRE(none);
  CHECK_FALSE(*none);
  auto stuck = agent_service::stop_service(shell, "/a");
  REQUIRE_FALSE(stuck);
  CHECK_THAT(stuck.error().message, Catch::Contains("did not stop"));
  CHECK(agent_service::version_from_banner("tfwsl-agent 0.1.0\n") == "0.1.0");
}

TEST_CASE("the installed agent's version is read from its banner by the banner's grammar", "[agent-service]") {
  // What `tfwsl-agent --version` of this very build prints (linux/app/agent_app.cpp).
  const std::string banner = build_info::version_line("tfwsl-agent") + "\n";
  CHECK(agent_service::version_from_banner(banner) == std::string(build_info::version()));
  CHECK(agent_service::version_from_banner("tfwsl-agent 0.2.0 (8da7c92)\n") == "0.2.0");
  CHECK(agent_service::version_from_banner("tfwsl-agent 0.2.0 (8da7c92-dirty)") == "0.2.0");
  CHECK(agent_service::version_from_banner("tfwsl-agent 0.1.0") == "0.1.0");
  CHECK(agent_service::version_from_banner("bash: tfwsl-agent: command not found").empty());
  CHECK(agent_service::version_from_banner("").empty());
}

TEST_CASE("a start that fails names the agent's log and stderr files", "[agent-service]") {
  ScriptedShell shell;
  shell.replies = {{5, "", "tfwsl-agent: cannot listen on 127.0.0.1:80: permission denied\n"}};
  auto started = agent_service::start_service(shell, {"/a", 80, {}, std::string(64, 'c')});
  REQUIRE_FALSE(started);
  const std::string& message = started.error().message;
  CHECK(message.find("cannot listen on 127.0.0.1:80") != std::string::npos);
  CHECK(message.find("~/.config/tfwsl/agent.log") != std::string::npos);
  CHECK(message.find("~/.config/tfwsl/agent.err") != std::string::npos);
  CHECK(message.find("in Test") != std::string::npos);
}
