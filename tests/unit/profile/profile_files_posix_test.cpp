// Issue 22, item 11, with the real port (stat(2)) and a real file another uid owns (root can
// chown it; skipped, never passed, without root).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>

#include "common/profile/profile_locate.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

TEST_CASE("a real tfwsl.yaml owned by another uid is ignored by the real port", "[profile][locate]") {
  if (::geteuid() != 0) {
    std::cout << "SKIPPED: needs root to give a file to another uid" << std::endl;
    std::exit(test::k_skip_exit_code);
  }
  test::TempDir dir;
  fs::create_directories(dir.path() / "work");
  const auto planted = dir.path() / "tfwsl.yaml";
  test::write_file(planted, "name: evil\npackages: { pip: [evilpkg] }\n");
  ProfileSearch search;
  search.start = dir.path() / "work";
  search.getenv = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  CHECK(choose_profile(search).name_or_path == planted.string());  // root's own: taken
  REQUIRE(::chown(planted.c_str(), 54321, 54321) == 0);
  auto choice = choose_profile(search);
  CHECK(choice.name_or_path != planted.string());
  REQUIRE_FALSE(choice.ignored.empty());
  CHECK(choice.ignored.front().find(planted.string() + ": owned by uid 54321") == 0);
}
