// `tfwsl doctor --bundle LINK`: a link where the bundle would go is refused, before the checks run
// and again when the bundle is written, and nothing is written through it (docs/safety-sweep.md, F3:
// the old ofstream(trunc) overwrote the link's target).
#include <catch2/catch.hpp>
#include <filesystem>

#include "common/text/utf_convert.hpp"
#include "tests/support/test_environment.hpp"
#include "win/tasks/doctor_bundle.hpp"

using namespace tfwsl;

TEST_CASE("doctor --bundle that is a link is refused by name and its target keeps its bytes") {
  tfwsl::test::TempDir dir;
  const auto victim = dir.path() / "victim";
  tfwsl::test::write_file(victim, "precious");
  for (const char* name : {"to-file.tar", "dangling.tar"}) {
    CAPTURE(name);
    const auto link = dir.path() / name;
    std::filesystem::create_symlink(std::string(name) == "dangling.tar" ? dir.path() / "nowhere" : victim, link);
    auto refused = cli::check_bundle_destination(path_to_utf8(link));
    REQUIRE(!refused);
    CHECK(refused.error().message.find(std::string(name) + " is a link") != std::string::npos);
    CHECK(!cli::write_doctor_bundle(path_to_utf8(link), doctor::DoctorResult{}));
    CHECK(std::filesystem::is_symlink(link));
  }
  CHECK(tfwsl::test::read_file(victim) == "precious");
  CHECK(!std::filesystem::exists(dir.path() / "nowhere"));
}
