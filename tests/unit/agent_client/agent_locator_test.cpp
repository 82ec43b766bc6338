// Which tfwsl-agent the CLI uses: --agent, TFWSL_AGENT, beside tfwsl, then the build tree's
// ../linux/tfwsl-agent; a missing one is an error naming where it looked and the fix.
#include <catch2/catch.hpp>

#include <set>

#include "common/agent_client/agent_locator.hpp"
#include "common/text/utf_convert.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_client;
namespace fs = std::filesystem;

namespace {

auto files(std::set<fs::path> present) {
  return [present](const fs::path& p) { return present.count(p.lexically_normal()) > 0; };
}

AgentSearch from(const std::string& exe) {
  AgentSearch s;
  s.executable = fs::path(exe);
  return s;
}

}  // namespace

TEST_CASE("agent search: beside the executable first, then the build tree's ../linux/") {
  auto s = from("/b/linux-only/win/tfwsl");
  auto candidates = agent_candidates(s);
  REQUIRE(candidates.size() == 2);
  CHECK(candidates[0].path == fs::path("/b/linux-only/win/tfwsl-agent"));
  CHECK(candidates[1].path == fs::path("/b/linux-only/linux/tfwsl-agent"));
  CHECK(*find_agent_binary(s, files({"/b/linux-only/linux/tfwsl-agent"})) == fs::path("/b/linux-only/linux/tfwsl-agent"));
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
