// Which tfwsl-agent the CLI uses: --agent, TFWSL_AGENT, beside tfwsl, then the build tree's
// ../linux/tfwsl-agent; a missing one is an error naming where it looked and the fix.
#include "win/agent_client/agent_locator.hpp"

#include <catch2/catch.hpp>
#include <set>

#include "common/text/utf_convert.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_client;
namespace fs = std::filesystem;

namespace {

auto files(std::set<fs::path> present) {
  return [present](const fs::path& p) { return present.count(p.lexically_normal()) > 0; };
}

AgentSearch from(const std::string& exe, bool in_build_tree = true) {
  AgentSearch s;
  s.executable = fs::path(exe);
  s.in_build_tree = in_build_tree;
  return s;
}

}  // namespace

TEST_CASE("agent search: beside the executable first, then the build tree's ../linux/") {
  auto s = from("/b/linux-only/win/tfwsl");
  auto candidates = agent_candidates(s);
  REQUIRE(candidates.size() == 2);
  CHECK(candidates[0].path == fs::path("/b/linux-only/win/tfwsl-agent"));
  CHECK(candidates[1].path == fs::path("/b/linux-only/linux/tfwsl-agent"));
  CHECK(*find_agent_binary(s, files({"/b/linux-only/linux/tfwsl-agent"})) ==
        fs::path("/b/linux-only/linux/tfwsl-agent"));
  CHECK(*find_agent_binary(s, files({"/b/linux-only/win/tfwsl-agent", "/b/linux-only/linux/tfwsl-agent"})) ==
        fs::path("/b/linux-only/win/tfwsl-agent"));
}

TEST_CASE("agent search: --agent, then TFWSL_AGENT, each the only place looked when given") {
  auto s = from("/b/win/tfwsl");
  s.env = "/env/tfwsl-agent";
  CHECK(*find_agent_binary(s, files({"/env/tfwsl-agent", "/b/win/tfwsl-agent"})) == fs::path("/env/tfwsl-agent"));
  s.option = "/opt/tfwsl-agent";
  CHECK(*find_agent_binary(s, files({"/opt/tfwsl-agent", "/env/tfwsl-agent"})) == fs::path("/opt/tfwsl-agent"));
  // A named binary that is not there is an error, not a quiet fall back to another one.
  auto missing = find_agent_binary(s, files({"/env/tfwsl-agent", "/b/win/tfwsl-agent"}));
  REQUIRE(!missing);
  CHECK(missing.error().code == ErrorCode::not_found);
  CHECK(missing.error().message.find(path_to_utf8(fs::path("/opt/tfwsl-agent")) + " (--agent)") != std::string::npos);
  s.option.clear();
  s.env = "";
  CHECK(*find_agent_binary(s, files({"/b/win/tfwsl-agent"})) == fs::path("/b/win/tfwsl-agent"));  // empty: unset
}

TEST_CASE("agent search: nothing found names every place and the fix") {
  auto missing = find_agent_binary(from("/b/win/tfwsl"), files({}));
  REQUIRE(!missing);
  const auto& m = missing.error().message;
  // In the platform's own spelling of the paths (backslashes on Windows).
  const auto candidates = agent_candidates(from("/b/win/tfwsl"));
  CHECK(m.find(path_to_utf8(candidates.at(0).path) + " (beside tfwsl)") != std::string::npos);
  CHECK(m.find(path_to_utf8(candidates.at(1).path) + " (the build tree)") != std::string::npos);
  CHECK(m.find("--target tfwsl-agent") != std::string::npos);
  CHECK(m.find("--agent PATH or TFWSL_AGENT=PATH") != std::string::npos);
}

TEST_CASE("agent search: an installed tfwsl looks beside itself only, and the fix is to reinstall it") {
  // As unzipped from the release archive (or put there by winget): no CMakeCache.txt one folder up.
  const fs::path exe = "/Users/Jos\xc3\xa9/AppData/Local/tfwsl 0.2.0/tfwsl.exe";
  CHECK_FALSE(in_build_tree(exe, files({"/Users/Jos\xc3\xa9/AppData/Local/tfwsl 0.2.0/tfwsl-agent"})));
  CHECK(in_build_tree("/b/windows/win/tfwsl.exe", files({"/b/windows/CMakeCache.txt"})));
  AgentSearch s;
  s.executable = exe;  // in_build_tree stays false
  auto candidates = agent_candidates(s);
  REQUIRE(candidates.size() == 1);
  CHECK(candidates[0].path == exe.parent_path() / "tfwsl-agent");
  // A ../linux/tfwsl-agent near an installed copy is not a build tree's: never taken.
  auto missing = find_agent_binary(s, files({"/Users/Jos\xc3\xa9/AppData/Local/linux/tfwsl-agent"}));
  REQUIRE(!missing);
  CHECK(missing.error().message.find("reinstall tfwsl") != std::string::npos);
  CHECK(missing.error().message.find("cmake") == std::string::npos);
  CHECK(missing_agent_fix(false).find("winget install tfwsl") != std::string::npos);
  CHECK(missing_agent_fix(true).find("cmake --build") != std::string::npos);
}
