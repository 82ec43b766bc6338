// The version line both programs print (tfwsl --version, tfwsl-agent --version): the version of
// project(VERSION) and the commit of cmake/build_stamp.cmake, -dirty for uncommitted changes.
#include "common/build_info/build_info.hpp"

#include <catch2/catch.hpp>
#include <regex>
#include <string>

using namespace tfwsl;

TEST_CASE("build info: 'tfwsl 0.2.0 (abc1234)', the commit as 7 hex digits, -dirty or unknown") {
  CHECK(build_info::version() == TFWSL_VERSION);
  const std::string line = build_info::version_line("tfwsl-agent");
  CHECK(std::regex_match(line, std::regex(R"(tfwsl-agent [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7}(-dirty)?|unknown)\))")));
  CHECK(line == "tfwsl-agent " + std::string(TFWSL_VERSION) + " (" + build_info::commit() + ")");
  CHECK((build_info::commit().find("-dirty") != std::string::npos) == build_info::detail::k_modified);
}
