// An installed agent older than this tfwsl (win/tasks/agent_upgrade.hpp): what counts as older,
// and the doctor's header line that names the command upgrading it, only when it is older.
#include <catch2/catch.hpp>
#include <string>

#include "win/render/doctor_header.hpp"
#include "win/tasks/agent_upgrade.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;

namespace {

std::vector<std::string> header_with_installed(const std::string& installed) {
  doctor::MachineFacts machine;
  machine.distro = "Ubuntu-22.04";
  machine.linux_side.installed_version = installed;
  return doctor_header({"tf-2.15", ProfileOrigin::builtin, "", {}}, machine, true);
}

}  // namespace

TEST_CASE("an agent is older when its version sorts before this tfwsl's, unreadable is not older") {
  CHECK(agent_is_older("0.0.9"));
  CHECK(agent_is_older("0.1.0"));
  CHECK_FALSE(agent_is_older(TFWSL_VERSION));
  CHECK_FALSE(agent_is_older("99.0.0"));
  CHECK_FALSE(agent_is_older(""));
  CHECK_FALSE(agent_is_older("tfwsl-agent"));
}

TEST_CASE("the doctor's header names the upgrade of an older installed agent, and only then") {
  const auto lines = header_with_installed("0.0.9");
  REQUIRE(lines.size() == 3);
  CHECK(lines[2] == "Agent: tfwsl-agent 0.0.9 is installed in Ubuntu-22.04, this tfwsl is " +
                        std::string(TFWSL_VERSION) + "; to upgrade it: tfwsl agent start --distro Ubuntu-22.04");
  CHECK(header_with_installed("").size() == 2);
  CHECK(header_with_installed(TFWSL_VERSION).size() == 2);
  CHECK(header_with_installed("99.0.0").size() == 2);
  CHECK(older_agent_words("0.1.0", "")
            .ends_with("installed in the default WSL distribution, this tfwsl is " + std::string(TFWSL_VERSION) +
                       "; to upgrade it: tfwsl agent start"));
}
