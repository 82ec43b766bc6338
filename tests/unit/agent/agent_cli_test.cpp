// tfwsl-agent's command line: the same conventions as tfwsl's (common/cli/command_line.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linux/app/agent_app.hpp"
#include "tests/support/agent_machine_run.hpp"
#include "tests/support/captured_run.hpp"

using namespace tfwsl;

namespace {
test::Captured run_agent(std::vector<std::string> args) { return test::run_captured(test::agent_cli, std::move(args)); }
}  // namespace

TEST_CASE("tfwsl-agent dataset imprt names the unknown subcommand and the one it resembles", "[cli]") {
  auto r = run_agent({"dataset", "imprt"});
  CHECK(r.code == 2);
  CHECK(r.err == "tfwsl-agent dataset: unknown command 'imprt'; did you mean 'import'?\n");
}

TEST_CASE("tfwsl-agent dataset alone lists its commands", "[cli]") {
  auto r = run_agent({"dataset"});
  CHECK(r.code == 2);
  CHECK(r.err.find("tfwsl-agent dataset: which command?") == 0);
  CHECK(r.err.find("\n  import ") != std::string::npos);
}

TEST_CASE("tfwsl-agent: a mistyped option names the command and the option it resembles", "[cli]") {
  auto r = run_agent({"check", "--jsn"});
  CHECK(r.code == 2);
  CHECK(r.err.rfind("tfwsl-agent check: unknown option --jsn; did you mean --json?\n", 0) == 0);
  auto nested = run_agent({"dataset", "import", "--sorce", "a", "--target", "b"});
  CHECK(nested.err.rfind("tfwsl-agent dataset import: unknown option --sorce; did you mean --source?\n", 0) == 0);
}

TEST_CASE("tfwsl-agent: an unknown command lists the commands", "[cli]") {
  auto r = run_agent({"frobnicate"});
  CHECK(r.code == 2);
  for (const char* name : {"\n  serve ", "\n  check ", "\n  dataset "}) CHECK(r.err.find(name) != std::string::npos);
}

TEST_CASE("tfwsl-agent: logging is --log-level and -v belongs to check (details)", "[cli]") {
  auto r = run_agent({"-vv", "serve"});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown option -vv") != std::string::npos);
  CHECK(run_agent({"check", "-v", "--help"}).code == 0);
}

TEST_CASE("tfwsl-agent: --log-file in a missing folder is an error at start", "[cli]") {
  auto r = run_agent({"--log-file", "/nonexistent-tfwsl-test-folder/agent.log", "check", "--json"});
  CHECK(r.code == 2);
  CHECK(r.err.find("tfwsl-agent: cannot write the log file '/nonexistent-tfwsl-test-folder/agent.log': the folder") ==
        0);
  CHECK(r.out.empty());
}

TEST_CASE("tfwsl-agent: every command's --help ends with examples and the exit codes are in the program's", "[cli]") {
  for (std::vector<std::string> command :
       {std::vector<std::string>{"serve"}, {"check"}, {"dataset"}, {"dataset", "import"}}) {
    command.push_back("--help");
    auto r = run_agent(command);
    CAPTURE(command);
    CHECK(r.code == 0);
    CHECK(r.out.find("Examples:\n  tfwsl-agent " + command.front()) != std::string::npos);
  }
  auto top = run_agent({"--help"});
  CHECK(top.out.find("\n  130  interrupted (Ctrl-C)") != std::string::npos);
  CHECK(top.out.find("Examples:\n  tfwsl-agent") != std::string::npos);
}

TEST_CASE("tfwsl-agent check folds its own echoes: no Python, so TensorFlow's checks fold under python.version",
          "[cli][fold]") {
  auto r = run_agent({"check", "--json", "--python", "/nonexistent-tfwsl-test/python3"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  std::map<std::string, nlohmann::json> checks;
  for (const auto& c : j["checks"]) checks[c["id"].get<std::string>()] = c;
  CHECK(checks["python.version"]["status"] == "fail");
  CHECK_FALSE(checks["python.version"].contains("blocked_by"));
  for (const char* id : {"tf.installed", "tf.build", "tf.gpu"}) {
    INFO(id);
    CHECK(checks[id].value("blocked_by", "") == "python.version");
  }
  // The summary counts root causes only, each of them unfolded, and the exit code follows them.
  const auto& roots = j["summary"]["root_causes"];
  CHECK(j["summary"]["issues"] == roots.size());
  CHECK(std::find(roots.begin(), roots.end(), "python.version") != roots.end());
  for (const auto& id : roots) CHECK_FALSE(checks[id.get<std::string>()].contains("blocked_by"));
  CHECK(j["summary"]["fix_first"]["id"] == roots.front());
  CHECK(r.code == 2);
}
