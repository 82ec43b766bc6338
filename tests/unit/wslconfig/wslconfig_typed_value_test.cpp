// One typed comparison for `set`, its --dry-run and DSC's test (which reads the dry run's changes):
// a value the file holds in another spelling of the same value ("08" for 8, "TRUE" for true) is no
// change. Before, DSC test showed processors: 8 as both the state and the desired value and still
// said _inDesiredState: false, and set rewrote the line.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "tests/support/test_environment.hpp"
#include "win/app/cli_app.hpp"

using namespace tfwsl;

TEST_CASE("wslconfig set: a value the file holds in another spelling is no change (08 is 8, TRUE is true)") {
  test::TempDir dir;
  const auto file = (dir.path() / ".wslconfig").string();
  const std::string bytes = "[wsl2]\nprocessors=08\nguiApplications=TRUE\n";
  test::write_file(file, bytes);
  auto r = test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "processors=8", "guiApplications=true", "--file",
                                                file, "--dry-run", "--json"});
  REQUIRE(r.code == 0);
  const auto planned = nlohmann::json::parse(r.out);
  REQUIRE(planned["changes"].size() == 2);
  for (const auto& change : planned["changes"]) CHECK(change["before"] == change["after"]);
  r = test::run_captured(test::tfwsl_cli,
                         {"wslconfig", "set", "processors=8", "guiApplications=true", "--file", file, "--yes"});
  CHECK(r.code == 0);
  CHECK(test::read_file(file) == bytes);
  int others = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) others += entry.path().string() != file;
  CHECK(others == 0);  // no backup: nothing was written
  // A different value is still a change.
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "processors=9", "--file", file, "--dry-run", "--json"});
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["changes"][0]["after"] == "9");
}
