// A .wslconfig that is a link (to a dotfiles repository, say) is written through to its target, and
// the backups go beside the target (wslconfig_file.cpp): set prunes and restore lists them there too.
// Before, both looked beside the link, so restore listed nothing and backups grew without bound
// (docs/safety-sweep.md, "in the helpers").
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/test_environment.hpp"
#include "win/tasks/wslconfig_backups.hpp"
#include "win/tasks/wslconfig_file.hpp"

using namespace tfwsl;

TEST_CASE("wslconfig backups of a linked .wslconfig are listed and pruned beside its target") {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "dotfiles");
  const auto target = (dir.path() / "dotfiles" / ".wslconfig").string();
  const auto link = (dir.path() / ".wslconfig").string();
  test::write_file(target, "[wsl2]\n");
  std::filesystem::create_symlink(target, link);
  for (int day = 1; day <= 7; ++day)
    test::write_file(target + ".tfwsl-backup-2026120" + std::to_string(day) + "-100000", "old");
  test::write_file(link + ".tfwsl-backup-20261208-100000", "beside the link: not a backup of the file written");
  // What `set` (WslconfigFile::target) and `restore` pass: the file the link ends at.
  auto resolved = cli::wslconfig_link_target(link);
  REQUIRE(resolved);
  auto listed = cli::list_wslconfig_backups(*resolved);
  REQUIRE(listed.size() == 7);
  CHECK(listed[0].path == target + ".tfwsl-backup-20261207-100000");
  CHECK(cli::prune_wslconfig_backups(*resolved).size() == 1);  // the last five and the first stay
  CHECK(cli::list_wslconfig_backups(*resolved).size() == 6);
  CHECK(std::filesystem::exists(link + ".tfwsl-backup-20261208-100000"));
  CHECK(std::filesystem::is_symlink(link));
}
