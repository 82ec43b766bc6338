// tfwsl wslconfig restore: the backups tfwsl made are listed newest first and put back with
// consent; beyond the last five they are removed, and a file of any other name is never touched.
#include <catch2/catch.hpp>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "tests/support/test_environment.hpp"
#include "win/app/cli_app.hpp"
#include "win/tasks/wslconfig_backups.hpp"

using namespace tfwsl;
using cli::is_tfwsl_backup_name;

TEST_CASE("wslconfig backups: only tfwsl's own names count") {
  CHECK(is_tfwsl_backup_name(".wslconfig.tfwsl-backup-20261201-161500", ".wslconfig"));
  CHECK(is_tfwsl_backup_name(".wslconfig.tfwsl-backup-20261201-161500-12", ".wslconfig"));
  CHECK_FALSE(is_tfwsl_backup_name(".wslconfig.tfwsl-backup-20261201-1615", ".wslconfig"));
  CHECK_FALSE(is_tfwsl_backup_name(".wslconfig.tfwsl-backup-20261201-161500.mine", ".wslconfig"));
  CHECK_FALSE(is_tfwsl_backup_name(".wslconfig.bak", ".wslconfig"));
  CHECK_FALSE(is_tfwsl_backup_name("other.tfwsl-backup-20261201-161500", ".wslconfig"));
}

TEST_CASE("wslconfig backups: newest first, and pruning keeps five, the first and the user's files") {
  test::TempDir dir;
  const auto file = (dir.path() / ".wslconfig").string();
  for (const char* stamp : {"20261201-100000", "20261201-100000-2", "20261202-090000", "20261130-235959",
                            "20261203-000000", "20261201-120000", "20261201-100000-10"})
    test::write_file(file + ".tfwsl-backup-" + stamp, stamp);
  test::write_file(file + ".bak", "mine");
  test::write_file(file + ".tfwsl-backup-notes.txt", "mine too");
  auto listed = cli::list_wslconfig_backups(file);
  REQUIRE(listed.size() == 7);
  CHECK(listed[0].stamp == "20261203-000000");
  CHECK(listed[1].stamp == "20261202-090000");
  CHECK(listed[3].stamp == "20261201-100000-10");
  CHECK(listed[4].stamp == "20261201-100000-2");
  CHECK(listed[6].stamp == "20261130-235959");
  const auto removed = cli::prune_wslconfig_backups(file);
  CHECK(removed.size() == 1);
  CHECK(cli::list_wslconfig_backups(file).size() == 6);
  CHECK(std::filesystem::exists(file + ".bak"));
  CHECK(std::filesystem::exists(file + ".tfwsl-backup-notes.txt"));
  CHECK(std::filesystem::exists(file + ".tfwsl-backup-20261130-235959"));  // the first: the user's own file
  CHECK_FALSE(std::filesystem::exists(file + ".tfwsl-backup-20261201-100000"));
}

// Issue 43, item 7: with five backups kept, the user's own .wslconfig (the first backup, taken before
// tfwsl first wrote it) was gone after six edits. Seven real edits by `set`, one second apart in
// their stamps' names, leave the original's bytes restorable.
TEST_CASE("wslconfig set keeps the first backup (of the file tfwsl did not write) after many edits") {
  test::TempDir dir;
  const auto file = (dir.path() / ".wslconfig").string();
  test::write_file(file, "# mine\n[wsl2]\nmemory=3GB\n");
  for (int gb = 4; gb <= 10; ++gb) {
    auto r = test::run_captured(test::tfwsl_cli,
                                {"wslconfig", "set", "memory=" + std::to_string(gb) + "GB", "--file", file, "--yes"});
    REQUIRE(r.code == 0);
  }
  const auto listed = cli::list_wslconfig_backups(file);
  REQUIRE(listed.size() == 6);
  CHECK(test::read_file(listed.back().path) == "# mine\n[wsl2]\nmemory=3GB\n");
}

TEST_CASE("wslconfig set says WSL must restart to use the change and how", "[wslconfig]") {
  test::TempDir dir;
  const auto file = (dir.path() / ".wslconfig").string();
  test::write_file(file, "[wsl2]\nmemory=8GB\n");
  auto r = test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "memory=6GB", "--file", file, "--yes"});
  REQUIRE(r.code == 0);
  CHECK(test::unwrapped(r.out).find(
            "WSL uses it after a restart: wsl --shutdown (stops every running distribution), or run this "
            "again with --apply") != std::string::npos);
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "memory=6GB", "--file", file, "--yes"});
  CHECK(r.out.find("after a restart") == std::string::npos);  // nothing written: nothing to restart for
}

TEST_CASE("tfwsl wslconfig restore lists, shows with --dry-run, and puts a backup back with --yes") {
  test::TempDir dir;
  const auto file = (dir.path() / ".wslconfig").string();
  test::write_file(file, "[wsl2]\nmemory=8GB\n");
  auto r = test::run_captured(test::tfwsl_cli, {"wslconfig", "set", "memory=12GB", "--file", file, "--yes"});
  REQUIRE(r.code == 0);
  CHECK(test::read_file(file) == "[wsl2]\nmemory=12GB\n");
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "restore", "--file", file});
  CHECK(r.code == 0);
  CHECK(r.out.find("  1  ") != std::string::npos);
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "restore", "1", "--file", file, "--dry-run"});
  CHECK(r.code == 0);
  CHECK(r.out.find("memory=8GB") != std::string::npos);
  CHECK(test::read_file(file) == "[wsl2]\nmemory=12GB\n");
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "restore", "1", "--file", file});  // no terminal, no --yes
  CHECK(r.code == 2);
  CHECK(test::read_file(file) == "[wsl2]\nmemory=12GB\n");
  r = test::run_captured(test::tfwsl_cli, {"wslconfig", "restore", "1", "--file", file, "--yes"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(test::read_file(file) == "[wsl2]\nmemory=8GB\n");
  CHECK(cli::list_wslconfig_backups(file).size() == 2);  // the restore kept the file it replaced
  r = test::run_captured(test::tfwsl_cli,
                         {"wslconfig", "restore", (dir.path() / "elsewhere").string(), "--file", file, "--yes"});
  CHECK(r.code == 2);
  CHECK(test::unwrapped(r.err).find("is not one of the") != std::string::npos);
}
